"""pytest configuration: hypothesis runs are derandomized so that CI is reproducible; `HYPOTHESIS_PROFILE=explore` searches afresh."""
import os
from hypothesis import settings, HealthCheck

settings.register_profile('ci', derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile('explore', deadline=None)
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'ci'))
