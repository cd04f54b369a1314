import re
from pathlib import Path

from tests.fresh_imports import loaded_after

WRAPPERS = Path(__file__).resolve().parents[2] / "wrappers"
PRIVATE_ACCESS = re.compile(r"\b(env|unwrapped|aec|raw|inner|conversation|world|domain)\._[a-z]\w*")


def test_wrappers__touch_no_private_attribute_of_the_env():
    offenders = {
        str(path.relative_to(WRAPPERS)): PRIVATE_ACCESS.findall(path.read_text())
        for path in WRAPPERS.rglob("*.py")
    }
    assert {path: found for path, found in offenders.items() if found} == {}
    assert len(offenders) >= 8  # the scan saw the wrapper files


def test_importing_the_wrappers__loads_no_litellm():
    statements = "import tau_env.wrappers, tau_env.wrappers.users, tau_env.wrappers.single_agent"
    assert loaded_after(statements, ("litellm",)) == []
