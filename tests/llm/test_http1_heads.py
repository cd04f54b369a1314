"""Reply heads read whole from the buffer and line by line give the same replies."""

import asyncio

import pytest

from tau_env.llm.http1 import ConnectionPool, Endpoint, HttpError

HEADS = {
    "crlf": b"HTTP/1.1 200 OK\r\nX-A: 1\r\nX-A: 2\r\nContent-Length: 2\r\n\r\nok",
    "bare lf": b"HTTP/1.1 200 OK\nX-A: 1\nX-A: 2\nContent-Length: 2\n\nok",
    "mixed": b"HTTP/1.1 200 OK\r\nX-A: 1\nX-A: 2\r\nContent-Length: 2\r\n\r\nok",
    "cr before crlf": b"HTTP/1.1 200 OK\r\r\nX-A: 1\r\r\nX-A: 2\r\nContent-Length: 2\r\n\r\nok",
    "100 continue": b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nX-A: 1, 2\r\n"
    b"Content-Length: 2\r\n\r\nok",
}


async def _exchange(raw, *, split=False):
    async def answer(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        if split:  # one byte at a time: the head is never whole in the buffer at once
            for index in range(len(raw)):
                writer.write(raw[index : index + 1])
                await writer.drain()
                await asyncio.sleep(0)
        else:
            writer.write(raw)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    pool = ConnectionPool()
    try:
        endpoint = Endpoint.of(f"http://127.0.0.1:{port}/v1/chat/completions", {})
        reply = await pool.post(endpoint, b"{}")
        return reply.status, reply.headers, await reply.read()
    finally:
        pool.close()
        server.close()
        await server.wait_closed()


@pytest.mark.parametrize("name", sorted(HEADS))
def test_head__read_whole_or_byte_by_byte_gives_the_same_reply(name):
    whole = asyncio.run(_exchange(HEADS[name]))
    split = asyncio.run(_exchange(HEADS[name], split=True))
    assert whole == split == (200, {"x-a": "1, 2", "content-length": "2"}, b"ok")


@pytest.mark.parametrize("split", [False, True])
def test_head__a_bad_header_line_is_an_http_error_either_way(split):
    raw = b"HTTP/1.1 200 OK\r\nno colon here\r\nContent-Length: 0\r\n\r\n"
    with pytest.raises(HttpError, match="bad header line: b'no colon here'"):
        asyncio.run(_exchange(raw, split=split))
