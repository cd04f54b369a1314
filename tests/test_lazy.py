"""`lazy_getattr`: a package's public names imported on first use, once."""

import pytest

from tau_env.lazy import lazy_getattr


def test_lazy_getattr__imports_a_name_on_first_use_and_keeps_it():
    namespace: dict = {}
    getattr_ = lazy_getattr("pkg", {"dumps": "json"}, namespace)
    import json

    assert getattr_("dumps") is json.dumps
    assert namespace == {"dumps": json.dumps}


def test_lazy_getattr__refuses_a_name_it_does_not_export():
    getattr_ = lazy_getattr("pkg", {"dumps": "json"}, {})
    with pytest.raises(AttributeError, match="module 'pkg' has no attribute 'loads'"):
        getattr_("loads")
