"""carambole's settings with a hasher that notes each hash, for servers a test counts."""

from carambole.settings import *  # noqa: F403

PASSWORD_HASHERS = ["tests.support.hashers.CountedPBKDF2PasswordHasher"]
