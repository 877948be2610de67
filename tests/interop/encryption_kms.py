#!/usr/bin/env python3
"""A pyarrow KMS client that wraps keys exactly as pqpage's InMemoryKmsClient does.

Both wrap the way parquet-java's InMemoryKMS and Arrow's TestOnlyInServerWrapKms do: AES-GCM under
the master key, with the master key ID's UTF-8 bytes as additional authenticated data, laid out
nonce (12 bytes) || ciphertext || tag (16 bytes), then base64 (standard alphabet, padded). So a
file pyarrow's CryptoFactory writes with this client reads in pqpage with an InMemoryKmsClient
holding the same master keys, and the other way round; the double-wrapping layer above the client
(KEKs, key material JSON) is pyarrow's own.

Use from a test (add this folder to sys.path):

    import encryption_kms
    factory = encryption_kms.crypto_factory()
    kms_config = encryption_kms.kms_connection_config({"kf": b"0123456789012345"})

The master keys travel in KmsConnectionConfig.custom_kms_conf, base64-encoded (as parquet-java's
InMemoryKMS takes them in "encryption.key.list"), so that any 16, 24 or 32 bytes can be a key.

`python encryption_kms.py --self-check` writes small tables with single and double wrapping, reads
them back with pyarrow (and is refused with the wrong master keys), and, where parquet-testing is
found ($PQPAGE_SHARED_DIR, else ../shared beside the checkout), reads parquet-java's file with
external key material.
"""
import base64
import binascii
import os
import pathlib
import sys
import tempfile

import pyarrow as pa
import pyarrow.parquet as pq
import pyarrow.parquet.encryption as pe
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

NONCE_BYTES = 12
TAG_BYTES = 16

# The master keys of parquet-java's and Arrow's key tool tests (the ones parquet-testing's
# external_key_material_java file was written with).
TEST_MASTER_KEYS = {
    "kf": b"0123456789012345",
    "kc1": b"1234567890123450",
    "kc2": b"1234567890123451",
}


def wrap_key(key_bytes, master_key, master_key_id):
    """Returns `key_bytes` sealed under `master_key` for the ID `master_key_id`, as base64 text."""
    nonce = os.urandom(NONCE_BYTES)
    sealed = nonce + AESGCM(master_key).encrypt(nonce, bytes(key_bytes), master_key_id.encode())
    return base64.b64encode(sealed).decode("ascii")


def unwrap_key(wrapped_key, master_key, master_key_id):
    """Returns the key wrap_key sealed; ValueError when it does not authenticate."""
    try:
        sealed = base64.b64decode(wrapped_key, validate=True)
    except binascii.Error as e:
        raise ValueError(f"a key wrapped with master key {master_key_id!r} is not base64") from e
    if len(sealed) < NONCE_BYTES + TAG_BYTES:
        raise ValueError(f"a key wrapped with master key {master_key_id!r} is too short")
    try:
        return AESGCM(master_key).decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:],
                                          master_key_id.encode())
    except InvalidTag as e:
        raise PermissionError(f"master key {master_key_id!r} does not unwrap this key (another "
                              "key under that ID, or an altered wrapped key)") from e


class InMemoryKmsClient(pe.KmsClient):
    """Master keys from custom_kms_conf (ID -> base64 of the key), held in memory."""

    def __init__(self, kms_connection_config):
        pe.KmsClient.__init__(self)
        self.master_keys = {}
        for key_id, encoded in kms_connection_config.custom_kms_conf.items():
            key = base64.b64decode(encoded, validate=True)
            if len(key) not in (16, 24, 32):
                raise ValueError(f"master key {key_id!r} holds {len(key)} bytes, not 16, 24 or 32")
            self.master_keys[key_id] = key

    def _master_key(self, master_key_identifier):
        try:
            return self.master_keys[master_key_identifier]
        except KeyError:
            raise KeyError(f"no master key {master_key_identifier!r} in the KMS") from None

    def wrap_key(self, key_bytes, master_key_identifier):
        return wrap_key(key_bytes, self._master_key(master_key_identifier), master_key_identifier)

    def unwrap_key(self, wrapped_key, master_key_identifier):
        return unwrap_key(wrapped_key, self._master_key(master_key_identifier),
                          master_key_identifier)


def kms_connection_config(master_keys=None):
    """A KmsConnectionConfig carrying `master_keys` (ID -> key bytes) for InMemoryKmsClient."""
    keys = TEST_MASTER_KEYS if master_keys is None else master_keys
    return pe.KmsConnectionConfig(custom_kms_conf={
        key_id: base64.b64encode(key).decode("ascii") for key_id, key in keys.items()})


def crypto_factory():
    """A pyarrow CryptoFactory whose KMS client is InMemoryKmsClient."""
    return pe.CryptoFactory(InMemoryKmsClient)


def _self_check():
    factory = crypto_factory()
    kms_config = kms_connection_config()
    table = pa.table({"double_field": pa.array([1.5, 2.5, None], pa.float64()),
                      "float_field": pa.array([0.5, None, 3.0], pa.float32()),
                      "plain": pa.array(["a", "b", "c"])})
    configs = {
        "double_columns": pe.EncryptionConfiguration(
            footer_key="kf", column_keys={"kc1": ["double_field"], "kc2": ["float_field"]}),
        "single_columns": pe.EncryptionConfiguration(
            footer_key="kf", column_keys={"kc1": ["double_field"], "kc2": ["float_field"]},
            double_wrapping=False, data_key_length_bits=256, plaintext_footer=True),
        "single_uniform": pe.EncryptionConfiguration(
            footer_key="kc1", uniform_encryption=True, double_wrapping=False,
            encryption_algorithm="AES_GCM_CTR_V1"),
    }
    with tempfile.TemporaryDirectory() as folder:
        for name, config in configs.items():
            path = pathlib.Path(folder, name + ".parquet.encrypted")
            encryption = factory.file_encryption_properties(kms_config, config)
            with pq.ParquetWriter(path, table.schema, encryption_properties=encryption) as writer:
                writer.write_table(table)
            decryption = factory.file_decryption_properties(kms_config)
            back = pq.read_table(path, decryption_properties=decryption)
            assert back.equals(table), name
            # The wrong key under a master key ID must be refused, not misread.
            wrong = kms_connection_config({**TEST_MASTER_KEYS, "kf": b"f" * 16,
                                           "kc1": b"f" * 16})
            try:
                pq.read_table(path, decryption_properties=crypto_factory()
                              .file_decryption_properties(wrong))
            except OSError:
                pass
            else:
                raise AssertionError(f"{name} read with the wrong master keys")
            print(f"ok: {name}")

    shared = os.environ.get("PQPAGE_SHARED_DIR",
                            pathlib.Path(__file__).resolve().parents[2].parent / "shared")
    data = pathlib.Path(shared, "parquet-testing/data")
    java_file = data / "external_key_material_java.parquet.encrypted"
    if java_file.exists():
        decryption = factory.file_decryption_properties(kms_config, parquet_file_path=java_file)
        java_table = pq.read_table(java_file, decryption_properties=decryption)
        assert java_table.column_names == ["integers", "strings"], java_table.column_names
        print(f"ok: parquet-java external key material ({java_table.num_rows} rows)")
    else:
        print(f"skipped: no {java_file}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] != ["--self-check"]:
        sys.exit(__doc__)
    sys.exit(_self_check())
