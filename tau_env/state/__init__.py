"""World state: copy-on-write databases shared across episodes, and transactional tool calls."""

from tau_env.state.database import Database, Snapshot, deep_merge
from tau_env.state.journal import Journal
from tau_env.state.table import Slot, Table
from tau_env.state.world import Toolbox, ToolResult, World

__all__ = [
    "Database",
    "Journal",
    "Slot",
    "Snapshot",
    "Table",
    "ToolResult",
    "Toolbox",
    "World",
    "deep_merge",
]
