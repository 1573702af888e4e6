"""The suite's password hasher: PBKDF2 as Django's, with few iterations, so a test is quick.

Its hashes read as any `pbkdf2_sha256` hash does (the count is written in each), so a
server the tests start, with the real settings, checks them too, and strengthens one at
its first login as it would an old hash (one the suite then checks as it is).
"""

import os

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """PBKDF2-SHA256 at a thousand iterations: a test's passwords guard nothing."""

    iterations = 1_000

    def must_update(self, encoded: str) -> bool:
        # Never re-hash, up or down: a new hash would end the login's sessions mid-test.
        return False


class CountedPBKDF2PasswordHasher(QuickPBKDF2PasswordHasher):
    """The quick hasher, writing a line to the file $CARAMBOLE_HASH_LOG for each hash."""

    def encode(self, password: str, salt: str, iterations: int | None = None) -> str:
        with open(os.environ["CARAMBOLE_HASH_LOG"], "a", encoding="utf-8") as log:
            log.write("hashed\n")
        return super().encode(password, salt, iterations)
