"""The telecom domain: dual-control technical support for a mobile carrier.

Description:
    The agent works on the company's database (plans, customers, lines, bills, devices) with
    13 tools; the user holds a simulated phone with 30 tools of their own (status bar, speed
    test, toggles, APN, VPN, app permissions, payments). Most problems can only be fixed by
    the user on the phone, guided by the agent. After every call a sync rule copies the state
    of the user's line (active, roaming, data left, payment requests) into the phone's
    surroundings. Tasks come in three intents (no service, mobile data, MMS) built from
    composable issues; unfixable ones must end in a transfer to a human agent.

Registered IDs:
    ``tau/telecom-v0`` (tech-support manual), ``tau/telecom-workflow-v0`` (the same tasks with
    the step-by-step workflow document as tech-support policy).

Version History:
    v0: first release. Official data from a folder (base 114 / small 20 / train 74 / test 40 /
    full 2285); built-in data, policy and tasks written by tau_env (`tasks/` generator).
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path
from typing import Literal

from tau_env.data_files import (
    BUILTIN_FILES,
    builtin_text,
    load_official_data,
    official_folder,
    official_guidelines,
    read_text,
)
from tau_env.domain import DomainData, DomainDefinition, forget_with_domains
from tau_env.domains.telecom.agent_functions import AGENT_ENV_FUNCTIONS
from tau_env.domains.telecom.data_model import TelecomDB
from tau_env.domains.telecom.sync import SYNC_INPUTS, sync_phone_with_line
from tau_env.domains.telecom.tools import AGENT_TOOLS
from tau_env.domains.telecom.user_data_model import TelecomUserDB
from tau_env.domains.telecom.user_functions import USER_ENV_FUNCTIONS
from tau_env.domains.telecom.user_script import USER_VOCABULARY
from tau_env.domains.telecom.user_tools import USER_TOOLS
from tau_env.state import Database, Snapshot, Toolbox
from tau_env.tasks.loading import parse_tasks

__all__ = [
    "DEFINITION",
    "TOOLBOX",
    "WORKFLOW_DEFINITION",
    "assemble_policy",
    "builtin_databases",
]

Variant = Literal["manual", "workflow"]

TOOLBOX = Toolbox.of(
    AGENT_TOOLS,
    USER_TOOLS,
    agent_env_functions=AGENT_ENV_FUNCTIONS,
    user_env_functions=USER_ENV_FUNCTIONS,
    sync=sync_phone_with_line,
    sync_inputs=SYNC_INPUTS,
)


def assemble_policy(main: str, tech_support: str) -> str:
    """The agent's policy as the reference assembles it: two tagged sections."""
    return (
        "<main_policy>\n"
        + main
        + "\n</main_policy>\n<tech_support_policy>\n"
        + tech_support
        + "\n</tech_support_policy>"
    )


# -- built-in data -------------------------------------------------------------------------------

_BUILTIN_TECH = {"manual": "tech_support_manual.md", "workflow": "tech_support_workflow.md"}


@cache
def builtin_databases() -> DomainData:
    """The built-in databases alone (no policy, no tasks): what the task generator builds on."""
    source = f"built-in {__name__}"

    def snapshot(db_type: type[Database], name: str) -> Snapshot:
        raw = json.loads(builtin_text(__name__, f"data/{name}"))
        return db_type.load_snapshot(raw, source=f"{source}/data/{name}")

    return DomainData(
        policy="",
        agent_snapshot=snapshot(TelecomDB, BUILTIN_FILES["db"]),
        user_snapshot=snapshot(TelecomUserDB, BUILTIN_FILES["user_db"]),
        tasks=(),
        splits={},
        source="built-in",
    )


@cache
def _builtin_common() -> DomainData:
    source = f"built-in {__name__}/data"
    tasks_text = builtin_text(__name__, f"data/{BUILTIN_FILES['tasks']}")
    tasks = parse_tasks(json.loads(tasks_text), source=source)
    splits = json.loads(builtin_text(__name__, f"data/{BUILTIN_FILES['splits']}"))
    return dataclasses.replace(
        builtin_databases(),
        tasks=tuple(tasks),
        splits={name: tuple(ids) for name, ids in splits.items()},
    )


def _load_builtin(variant: Variant) -> DomainData:
    common = _builtin_common()
    main = builtin_text(__name__, "policy.md")
    tech = builtin_text(__name__, _BUILTIN_TECH[variant])
    solo = builtin_text(__name__, "policy_solo.md")
    return dataclasses.replace(
        common,
        policy=assemble_policy(main, tech),
        solo_policy=assemble_policy(main + "\n" + solo, tech),
    )


# -- official data -------------------------------------------------------------------------------

_OFFICIAL_TECH = {"manual": "tech_support_manual.md", "workflow": "tech_support_workflow.md"}
_OFFICIAL_SOLO_TECH = {
    "manual": "tech_support_manual.md",
    "workflow": "tech_support_workflow_solo.md",
}


@cache
def _official_common(folder: str) -> DomainData:
    """Databases, tasks and splits of an official folder, parsed once for both variants.

    The reference writes the databases as TOML; a set written by ``tau-env generate`` as JSON
    (``db.json``, ``user_db.json``), read when there is no ``db.toml``.
    """
    toml, json_file = Path(folder) / "db.toml", Path(folder) / "db.json"
    suffix = ".json" if not toml.is_file() and json_file.is_file() else ".toml"
    return load_official_data(
        Path(folder),
        agent_db=TelecomDB,
        agent_db_file=f"db{suffix}",
        user_db=TelecomUserDB,
        user_db_file=f"user_db{suffix}",
        policy="",
    )


forget_with_domains(_official_common.cache_clear)  # an edited or new folder is read again


def _load_official(data_dir: Path, variant: Variant) -> DomainData:
    folder = official_folder(data_dir, "telecom")
    common = _official_common(str(folder))
    policy = assemble_policy(
        read_text(folder / "main_policy.md"), read_text(folder / _OFFICIAL_TECH[variant])
    )
    solo_main, solo_tech = folder / "main_policy_solo.md", folder / _OFFICIAL_SOLO_TECH[variant]
    solo_policy = None
    if solo_main.is_file() and solo_tech.is_file():
        solo_policy = assemble_policy(read_text(solo_main), read_text(solo_tech))
    return dataclasses.replace(
        common,
        policy=policy,
        solo_policy=solo_policy,
        guidelines=official_guidelines(data_dir),
    )


def _definition(name: str, variant: Variant) -> DomainDefinition:
    return DomainDefinition(
        name=name,
        toolbox=TOOLBOX,
        agent_db=TelecomDB,
        user_db=TelecomUserDB,
        load_builtin=lambda: _load_builtin(variant),
        load_official=lambda data_dir: _load_official(data_dir, variant),
        user_vocabulary=USER_VOCABULARY,
    )


DEFINITION = _definition("telecom", "manual")
WORKFLOW_DEFINITION = _definition("telecom-workflow", "workflow")
