"""The mock domain: a tiny to-do service used to test the framework.

Description:
    The agent manages users' to-do tasks; the user has a notification inbox on their side.
    Four agent tools (create_task, get_users, update_task_status, transfer_to_human_agents)
    and two user tools (check_notifications, dismiss_notification), as in the reference.

Registered IDs:
    ``tau/mock-v0``.

Version History:
    v0: first release (built-in data written by tau_env; official data from a folder).
"""

from __future__ import annotations

from tau_env.domain import DomainDefinition
from tau_env.domains.mock.data_model import MockDB
from tau_env.domains.mock.tools import AGENT_ENV_FUNCTIONS, AGENT_TOOLS
from tau_env.domains.mock.user_data_model import MockUserDB
from tau_env.domains.mock.user_script import USER_VOCABULARY
from tau_env.domains.mock.user_tools import USER_ENV_FUNCTIONS, USER_TOOLS
from tau_env.state import Toolbox

__all__ = ["DEFINITION"]

TOOLBOX = Toolbox.of(
    AGENT_TOOLS,
    USER_TOOLS,
    agent_env_functions=AGENT_ENV_FUNCTIONS,
    user_env_functions=USER_ENV_FUNCTIONS,
)


DEFINITION = DomainDefinition(
    name="mock",
    toolbox=TOOLBOX,
    agent_db=MockDB,
    user_db=MockUserDB,
    user_vocabulary=USER_VOCABULARY,
)
