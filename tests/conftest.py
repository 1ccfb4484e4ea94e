"""pytest configuration: hypothesis runs are derandomized so that CI is reproducible; `HYPOTHESIS_PROFILE=explore` searches afresh."""
import os
from hypothesis import settings, HealthCheck

settings.register_profile('ci', derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile('explore', deadline=None)
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'ci'))

import pytest

@pytest.fixture(autouse=True)
def _mpmath_precision(request):
    """mpmath's precision is global: tests that raise it (or modules that set it at import) would leak into the next
    test in the same worker. Every test starts at the module's `MP_DPS` (default 50 digits) and restores it after."""
    import mpmath
    mpmath.mp.dps = getattr(request.module, 'MP_DPS', 50)
    yield
    mpmath.mp.dps = getattr(request.module, 'MP_DPS', 50)
