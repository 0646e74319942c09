"""The secrets the embedded stack makes once per home: kept, private to their owner."""

import stat

from cryptography.fernet import Fernet

from axonal_stack.settings import StackPaths


def test_the_connection_key_is_a_fernet_key_made_once_and_private(tmp_path):
    paths = StackPaths(tmp_path)
    key = paths.read_connection_key()
    assert Fernet(key).decrypt(Fernet(key).encrypt(b"sk-secret")) == b"sk-secret"
    assert paths.read_connection_key() == key
    assert stat.S_IMODE(paths.connection_key.stat().st_mode) == 0o600
    assert StackPaths(tmp_path).read_run_token_secret() != key
