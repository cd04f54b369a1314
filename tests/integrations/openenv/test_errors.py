"""Every bad request gets a 4xx JSON answer (HTTP) or an error frame (WebSocket); nothing moves."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest

import tau_env
from tau_env.chat import make_chat_env

TEST_IDS = [t.id for t in tau_env.load_tasks("telecom", split="test")]


def post(url: str, body: bytes | dict) -> tuple[int, object]:
    """POST a body; the status and the JSON answer (errors included)."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"task_id": "no-such-task"}, 404, "no task 'no-such-task'"),
        ({"split": "no-such-split", "index": 0}, 404, "unknown split 'no-such-split'"),
        ({"split": "test", "index": len(TEST_IDS)}, 404, f"has {len(TEST_IDS)} tasks"),
        ({"split": "test", "index": -1}, 404, "out of range"),
        ({"split": "test", "index": "3"}, 422, "index must be an integer"),
        ({"task_id": 7}, 422, "task_id must be a string"),
        ({"task_id": TEST_IDS[0], "index": 0}, 422, "not both"),
        ({"split": "test"}, 422, "needs an index"),
        ({"seed": "seven"}, 422, "seed"),
        (b"{not json", 422, "JSON decode error"),
    ],
)
def test_http_reset__bad_request_is_a_4xx_json_error(server, body, status, words):
    code, answer = post(server + "/reset", body)
    assert code == status
    assert words in json.dumps(answer)


def test_http_reset__a_good_request_still_plays(server):
    code, answer = post(server + "/reset", {"split": "test", "index": 1, "seed": 3})
    assert code == 200
    assert "task_id" not in answer["observation"]  # the client knows it; the model must not
    expected = make_chat_env("telecom").reset(task_id=TEST_IDS[1], seed=3).messages
    assert answer["observation"]["messages"] == expected  # task 1 of the test split was played
    assert answer["done"] is False


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"action": {"content": "Hello"}}, 409, "no episode in progress"),
        ({"action": {"text": "Hello"}}, 422, "extra_forbidden"),
        ({"actions": {}}, 422, "missing"),
        (b"[1, 2", 422, "JSON decode error"),
    ],
)
def test_http_step__bad_request_is_a_4xx_json_error(server, body, status, words):
    code, answer = post(server + "/step", body)
    assert code == status
    assert words in json.dumps(answer)
    if status == 409:  # the answer says where episodes are played
        assert "/ws" in answer["detail"]


@pytest.mark.parametrize(
    ("route", "body", "status", "words"),
    [
        ("num_tasks", {"split": "no-such-split"}, 404, "unknown split"),
        ("tasks", {"split": "no-such-split"}, 404, "unknown split"),
        ("task", {"split": "test", "index": 10_000}, 404, "out of range"),
    ],
)
def test_task_routes__unknown_split_or_index_is_404(server, route, body, status, words):
    code, answer = post(f"{server}/tau_env-telecom/{route}", body)
    assert code == status
    assert words in answer["detail"]


def test_websocket__bad_requests_are_error_frames_and_the_session_goes_on(server):
    import websockets

    async def main():
        async with websockets.connect(server.replace("http", "ws", 1) + "/ws") as ws:

            async def ask(kind, data=None):
                message = {"type": kind} if data is None else {"type": kind, "data": data}
                await ws.send(json.dumps(message))
                return json.loads(await ws.recv())

            before_reset = await ask("step", {"content": "Hello"})
            unknown = await ask("reset", {"task_id": "no-such-task"})
            out_of_range = await ask("reset", {"split": "test", "index": 10_000})
            malformed = await ask("step", {"content": 5})
            started = await ask("reset", {"task_id": TEST_IDS[0], "seed": 0})
            await ask("step", {"content": "###STOP###"})
            ended = await ask("state")
            after_end = await ask("step", {"content": "Hello"})
            return before_reset, unknown, out_of_range, malformed, started, ended, after_end

    before_reset, unknown, out_of_range, malformed, started, ended, after_end = asyncio.run(main())
    assert before_reset["type"] == "error"
    assert "no episode in progress" in before_reset["data"]["message"]
    assert "no task 'no-such-task'" in unknown["data"]["message"]
    assert "out of range" in out_of_range["data"]["message"]
    assert malformed["data"]["code"] == "VALIDATION_ERROR"
    assert started["type"] == "observation"  # the session survived every error
    assert started["data"]["observation"]["messages"][0]["role"] == "system"
    assert ended["data"]["done"] is True
    assert "the episode has ended" in after_end["data"]["message"]


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("tau_env-telecom/task_range", b'{"split": "test", "start": 0, "stop": 1e400}'),
        ("reset", b'{"seed": NaN}'),
        ("reset", b'{"seed": Infinity}'),
        ("reset", b'{"episode_id": "\\ud800"}'),
        ("tau_env-telecom/task", b'{"split": {"name": "\\ud800"}, "index": 0}'),
        ("tau_env-telecom/task_range", b'{"split": "test", "start": "\\ud800", "stop": 2}'),
        ("tau_env-telecom/tasks", b'{"split": "test", "x": "\\udc00"}'),
        ("step", b'{"action": {"text": "\\ud800"}}'),
    ],
)
def test_http__values_json_cannot_write_back_are_one_line_4xx(server, route, body):
    """Issue 56, defect 9: FastAPI's 422 quoted the value, and NaN, inf or a lone surrogate
    turned it into a 500."""
    code, answer = post(f"{server}/{route}", body)
    assert code == 422
    assert isinstance(answer["detail"], str) and "\n" not in answer["detail"]
    assert answer["detail"].endswith(")")  # "<where>: <what> (<error type>)"


def test_websocket__a_lone_surrogate_in_a_tool_argument_is_refused_frames_serialise(server):
    """Issue 56, defect 6: the step ran, and every reply was 'Error serializing to JSON'."""
    import websockets

    async def main():
        async with websockets.connect(server.replace("http", "ws", 1) + "/ws") as ws:

            async def ask(text):
                await ws.send(text)
                return json.loads(await ws.recv())

            await ask(json.dumps({"type": "reset", "data": {"task_id": TEST_IDS[0], "seed": 0}}))
            call = '{"function": {"name": "get_customer_by_phone", "arguments": {"phone_number": '
            step = '{"type": "step", "data": {"tool_calls": [' + call + '"\\ud800"}}}]}}'
            surrogate = await ask(step)
            in_content = await ask('{"type": "step", "data": {"content": "hi \\udc00"}}')
            state = await ask('{"type": "state"}')
            emoji = await ask('{"type": "step", "data": {"content": "Hello \\ud83d\\ude00"}}')
            nan_seed = await ask('{"type": "reset", "data": {"seed": NaN}}')
            return surrogate, in_content, state, emoji, nan_seed

    surrogate, in_content, state, emoji, nan_seed = asyncio.run(main())
    assert surrogate["data"]["code"] == "INVALID_TEXT"
    assert "lone surrogate" in surrogate["data"]["message"]
    assert in_content["data"]["code"] == "INVALID_TEXT"
    assert state["data"]["step_count"] == 0  # nothing ran
    assert emoji["type"] == "observation"  # a whole pair is text like any other
    assert "seed must be a non-negative integer" in nan_seed["data"]["message"]


def test_tau_open_env__a_lone_surrogate_in_a_step_is_an_error_result():
    """Over any transport (the WebSocket refuses it earlier): nothing runs."""
    from tau_env.integrations.openenv import TauAction, TauOpenEnv

    env = TauOpenEnv("telecom")
    env.reset(task_id=TEST_IDS[0], seed=0)
    call = {"function": {"name": "get_customer_by_phone", "arguments": {"phone_number": "\ud800"}}}
    observation = env.step(TauAction(tool_calls=[call]))
    assert "lone surrogate" in observation.metadata["error"]
    assert env.state.step_count == 0


@pytest.fixture(scope="module")
def official_retail(data_dir):
    from tau_env.testing.serving import served

    with served(["--domain", "retail", "--data-dir", str(data_dir)]) as url:
        yield url


def test_http_reset__a_task_needing_a_judge_without_one_is_404(official_retail, data_dir):
    """Issue 54, build item 4: it answered 500."""
    from tau_env.grading.reward import needs_nl_judge

    tasks = tau_env.load_tasks("retail", data_dir=data_dir)
    judged = next(task.id for task in tasks if needs_nl_judge(task))
    plain = next(task.id for task in tasks if not needs_nl_judge(task))
    code, answer = post(official_retail + "/reset", {"task_id": judged, "seed": 0})
    listed = post(official_retail + "/tau_env-retail/tasks", {"split": "all"})[1]["tasks"]
    assert code == 404
    assert "no judge (--judge-model)" in answer["detail"]
    assert post(official_retail + "/reset", {"task_id": plain, "seed": 0})[0] == 200
    ids = {task["id"] for task in listed}
    assert plain in ids and judged not in ids
