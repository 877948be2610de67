"""Modular encryption both ways against pyarrow's key tools (issue 29).

pyarrow writes, pqpage reads: a table of the types pyarrow writes is written by pyarrow's
CryptoFactory with the test KMS client of encryption_kms.py, for both algorithms, both footer
modes, single and double wrapping, uniform and per-column keys. `pqpage dump --master-key ...`
(the same master keys, unwrapped by pqpage's InMemoryKmsClient) must print exactly what it
prints for the table written by pyarrow in the clear; without keys, an encrypted footer is refused
and a plaintext footer's unencrypted columns still dump.

pqpage writes, pyarrow reads: the clear file recoded by `pqpage recode --encrypt ... --kms-footer
--kms-column` in the same layouts; pyarrow's CryptoFactory (same KMS client) must read it back
equal to the table, and a wrong master key must be refused.

pyarrow's Python API has no AAD prefix; the prefix is checked against Arrow C++'s own files
(parquet-testing, encrypted_read_test) and pqpage's (encrypted_write_test).

Called by ctest as: encryption_peers_test.py TOOL SHARED_DIR SCRATCH_DIR; runs in the peers'
virtualenv (skipped, 77, where there is none).
"""

import datetime
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402

ROWS = 3000
ROW_GROUP = 1000
# Columns with keys of their own in the per-column layouts; the others stay in the clear.
COLUMN_KEYS = {"kc1": ["name", "amount"], "kc2": ["tags.list.element"]}


def made_table():
    import pyarrow as pa
    rng = random.Random(29)
    epoch = datetime.datetime(2026, 1, 1)
    return pa.table({
        "id": pa.array(range(ROWS), pa.int64()),
        "name": pa.array([None if i % 11 == 0 else f"patient-{rng.randrange(700)}"
                          for i in range(ROWS)], pa.string()),
        "amount": pa.array([rng.randrange(10**6) / 100 for _ in range(ROWS)], pa.float64()),
        "at": pa.array([epoch + datetime.timedelta(seconds=rng.randrange(10**7))
                        for _ in range(ROWS)], pa.timestamp("us")),
        "code": pa.array([rng.randrange(40) for _ in range(ROWS)], pa.int32()),
        "tags": pa.array([[f"t{rng.randrange(9)}" for _ in range(rng.randrange(4))]
                          for _ in range(ROWS)], pa.list_(pa.string())),
    })


def layouts():
    """(name, EncryptionConfiguration keywords, recode options) of each layout tested."""
    for algorithm, flag in (("AES_GCM_V1", "gcm"), ("AES_GCM_CTR_V1", "ctr")):
        for plaintext_footer in (False, True):
            for double_wrapping in (True, False):
                for uniform in (False, True):
                    name = (f"{flag}-{'plain' if plaintext_footer else 'enc'}footer-"
                            f"{'double' if double_wrapping else 'single'}-"
                            f"{'uniform' if uniform else 'columns'}")
                    config = dict(footer_key="kf", encryption_algorithm=algorithm,
                                  plaintext_footer=plaintext_footer,
                                  double_wrapping=double_wrapping)
                    options = ["--encrypt", flag, "--kms-footer", "kf"]
                    if uniform:
                        config["uniform_encryption"] = True
                    else:
                        config["column_keys"] = COLUMN_KEYS
                        for key, paths in COLUMN_KEYS.items():
                            options += ["--kms-column", f"{key}={','.join(paths)}"]
                    if plaintext_footer:
                        options.append("--plaintext-footer")
                    if not double_wrapping:
                        options.append("--single-wrapping")
                    yield name, config, options


def master_key_options():
    import encryption_kms as K
    options = []
    for key_id, key in K.TEST_MASTER_KEYS.items():
        options += ["--master-key", f"{key_id}={key.hex()}"]
    return options


def dump_text(tool, path, *options):
    result = C.run_tool(tool, "dump", path, *options)
    return result.returncode, result.stdout, result.stderr.strip()[:300]


def main(tool, scratch):
    # Imported once in the peers' virtualenv (main_in_venv re-runs the script there first).
    import encryption_kms as K
    import pyarrow.parquet as pq
    import pyarrow.parquet.encryption as pe

    table = made_table()
    clear = os.path.join(scratch, "clear.parquet")
    pq.write_table(table, clear, row_group_size=ROW_GROUP)
    status, expected, error = dump_text(tool, clear)
    if status != 0:
        print("FAIL: pqpage dump of the clear file:", error)
        return 1
    factory = K.crypto_factory()
    kms = K.kms_connection_config(K.TEST_MASTER_KEYS)
    wrong_kms = K.kms_connection_config(
        {key_id: bytes(reversed(key)) for key_id, key in K.TEST_MASTER_KEYS.items()})
    keys = master_key_options()
    matrix = C.Matrix("Modular encryption with pyarrow's key tools",
                      ["layout", "pyarrow writes, pqpage reads", "pqpage writes, pyarrow reads"])
    failures = []
    for name, config, recode_options in layouts():
        cells = [name]
        # pyarrow writes, pqpage reads.
        path = os.path.join(scratch, f"pyarrow-{name}.parquet")
        properties = factory.file_encryption_properties(kms, pe.EncryptionConfiguration(**config))
        pq.write_table(table, path, row_group_size=ROW_GROUP, encryption_properties=properties)
        status, got, error = dump_text(tool, path, *keys)
        problems = []
        if status != 0:
            problems.append(f"pqpage dump exit {status}: {error}")
        elif got != expected:
            problems.append("pqpage dump differs from the clear file's")
        status, got, error = dump_text(tool, path)
        if not config["plaintext_footer"] and status == 0:
            problems.append("an encrypted footer dumped without keys")
        if config["plaintext_footer"] and "uniform_encryption" not in config:
            status, got, error = dump_text(tool, path, "--column", "id")
            if status != 0:
                problems.append(f"a column in the clear did not dump without keys: {error}")
        cells.append("; ".join(problems) or "same values")
        failures += [f"{name}: pyarrow writes: {p}" for p in problems]
        failed = bool(problems)

        # pqpage writes, pyarrow reads.
        out = os.path.join(scratch, f"pqpage-{name}.parquet")
        result = C.run_tool(tool, "recode", clear, out, "--verify", *keys, *recode_options)
        problems = []
        if result.returncode != 0:
            problems.append(f"pqpage recode exit {result.returncode}: {result.stderr.strip()[:300]}")
        else:
            decryption = factory.file_decryption_properties(kms, pe.DecryptionConfiguration())
            try:
                read = pq.read_table(out, decryption_properties=decryption)
                if not read.equals(table):
                    problems.append("pyarrow reads other values")
            except Exception as error:  # noqa: BLE001 - any failure is the finding
                problems.append(f"pyarrow cannot read it: {str(error)[:300]}")
            refused = False
            try:
                # A factory of its own: pyarrow's caches the keys it unwrapped.
                wrong = K.crypto_factory().file_decryption_properties(
                    wrong_kms, pe.DecryptionConfiguration())
                pq.read_table(out, decryption_properties=wrong)
            except Exception:  # noqa: BLE001 - refusal in any form is right
                refused = True
            if not refused:
                problems.append("pyarrow read it with the wrong master keys")
        cells.append("; ".join(problems) or "same values")
        failures += [f"{name}: pqpage writes: {p}" for p in problems]
        matrix.add(cells, "FAIL" if failed or problems else "pass")
    matrix.write(scratch)
    print(matrix.summary())
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(C.main_in_venv(main))
