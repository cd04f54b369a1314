"""Tools: declared once as typed functions, exposed as schemas, called with validated arguments."""

from tau_env.tools.spec import FunctionSpec, ToolKind, env_function, function_spec, tool
from tau_env.tools.toolset import ToolSet

__all__ = ["FunctionSpec", "ToolKind", "ToolSet", "env_function", "function_spec", "tool"]
