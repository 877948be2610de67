#!/usr/bin/env bash
# Parquet Modular Encryption from the tool's side, on copies of the sample that recode encrypts
# here: AES_GCM_V1 and AES_GCM_CTR_V1, one key for all (uniform) or keys per column (the others
# left in the clear), encrypted or plaintext (signed) footers. With the right keys every reading
# command reads what the input holds (dump byte for byte); without them, or with wrong ones, it
# fails with exit 1 naming the key (and prints no values of what it cannot read), while the
# columns left in the clear stay readable. Also: key files, AAD prefixes (stored, not stored),
# re-keying and decrypting, the key tools' envelope encryption (an in-memory KMS, double and
# single wrapping), and the usage errors (exit 2) of the key options.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# Keys of each length the format allows (16, 24, 32 bytes), a wrong one, new ones for a re-key,
# and master keys for the KMS.
KF=00112233445566778899aabbccddeeff
KZ=0123456789abcdef0123456789abcdef0123456789abcdef
KR=fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210
KW=ffffffffffffffffffffffffffffffff
N1=11111111111111111111111111111111
N2=22222222222222222222222222222222
MF=000102030405060708090a0b0c0d0e0f
MC=101112131415161718191a1b1c1d1e1f
MX=202122232425262728292a2b2c2d2e2f

# same_dump LABEL FILE [OPTION...]: dump FILE (with the OPTIONs: keys) exits 0 and prints exactly
# what dump of the input prints.
same_dump() {
  local label=$1 file=$2
  shift 2
  run_expect 0 "$label" -- "$TOOL" dump "$file" "$@"
  cmp -s "$SCRATCH/in.dump" "$SCRATCH/out" || {
    diff <(cut -c1-120 "$SCRATCH/in.dump") <(cut -c1-120 "$SCRATCH/out") | head -6 >&2
    fail "$label: the dump differs from the input's"
  }
  CHECKS=$((CHECKS + 1))
}

# expect_magic FILE MAGIC LABEL: FILE ends in MAGIC (PAR1: plaintext footer, PARE: encrypted).
expect_magic() {
  local got
  got=$(tail -c 4 "$1")
  [[ $got == "$2" ]] || fail "$3: the file ends in '$got', expected '$2'"
  CHECKS=$((CHECKS + 1))
}

# no_values LABEL [PATH]: stdout of the last run_expect has no dump line with values (of PATH's
# column only, when given).
no_values() {
  local pattern='"values":'
  [[ $# -gt 1 ]] && pattern="\"path\":\"$2\""
  if grep -qF -- "$pattern" "$SCRATCH/out"; then
    fail "$1: stdout shows values it should not have read: $(grep -F -- "$pattern" \
      "$SCRATCH/out" | cut -c1-100 | head -1)"
  fi
  CHECKS=$((CHECKS + 1))
}

# expect_count COUNT PATTERN FILE LABEL: exactly COUNT lines of FILE match the extended regex.
expect_count() {
  local got
  got=$(grep -Ec -- "$2" "$3" || true)
  [[ $got -eq $1 ]] || fail "$4: $got lines match /$2/, expected $1"
  CHECKS=$((CHECKS + 1))
}

# check LABEL COMMAND...: COMMAND succeeds.
check() {
  local label=$1
  shift
  "$@" || fail "$label"
  CHECKS=$((CHECKS + 1))
}

run_expect 0 "dump the input" -- "$TOOL" dump "$SAMPLE"
mv "$SCRATCH/out" "$SCRATCH/in.dump"
for path in vendor_id zone; do
  "$TOOL" dump "$SAMPLE" --column "$path" > "$SCRATCH/in.$path.dump"
done

# --- 1. recode --encrypt, both algorithms x footers x key layouts: --verify passes, the magic
# says how the footer is kept, the keys read back what the input holds, and inspect (with the
# keys) shows the algorithm, the footer's key metadata and how each chunk is encrypted.
for alg in gcm ctr; do
  algorithm=AES_GCM_V1
  [[ $alg == ctr ]] && algorithm=AES_GCM_CTR_V1
  for footer in encrypted plaintext; do
    for layout in uniform columns; do
      name=$alg-$footer-$layout
      out=$SCRATCH/$name.parquet
      options=(--encrypt "$alg" --out-footer-key "$KF:footer-meta")
      keys=(--footer-key "$KF")
      magic=PARE
      footer_text="encrypted footer"
      if [[ $footer == plaintext ]]; then
        options+=(--plaintext-footer)
        magic=PAR1
        footer_text="plaintext footer \(signed\)"
      fi
      if [[ $layout == columns ]]; then
        options+=(--out-column-key "zone=$KZ:zone-meta" --out-column-key "fare=$KR")
        keys+=(--column-key "zone=$KZ" --column-key "fare=$KR")
      fi
      run_expect 0 "recode $name --verify" -- "$TOOL" recode "$SAMPLE" "$out" "${options[@]}" \
        --verify
      expect_grep ', verified in ' "$SCRATCH/out" "recode $name: verified"
      expect_magic "$out" $magic "recode $name"
      same_dump "dump $name with its keys" "$out" "${keys[@]}"
      run_expect 0 "inspect $name with its keys" -- "$TOOL" inspect "$out" "${keys[@]}"
      line="^encryption: +$algorithm, $footer_text \(footer key metadata \"footer-meta\"\)$"
      expect_grep "$line" "$SCRATCH/out" "inspect $name: the encryption line"
      if [[ $layout == uniform ]]; then
        # Under a plaintext footer, the footer key encrypts each chunk's metadata too.
        line='^    encrypted: footer key$'
        [[ $footer == plaintext ]] &&
          line='^    encrypted: footer key, column metadata encrypted$'
        expect_count 14 "$line" "$SCRATCH/out" "inspect $name: every chunk with the footer key"
      else
        expect_count 0 '^    encrypted: footer key' "$SCRATCH/out" \
          "inspect $name: no chunk with the footer key"
        expect_count 2 \
          '^    encrypted: column key \(key metadata "zone-meta"\), column metadata encrypted$' \
          "$SCRATCH/out" "inspect $name: zone's chunks with their key and its metadata"
        expect_count 2 '^    encrypted: column key, column metadata encrypted$' \
          "$SCRATCH/out" "inspect $name: fare's chunks with their key"
      fi
    done
  done
done
run_expect 0 "inspect --json gcm-encrypted-uniform with its key" -- "$TOOL" inspect \
  "$SCRATCH/gcm-encrypted-uniform.parquet" --json --footer-key "$KF"
python3 - "$SCRATCH/out" <<'PY' || fail "inspect --json gcm-encrypted-uniform with its key"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["encryption"] == {"algorithm": "AES_GCM_V1", "encrypted_footer": True,
                             "footer_key_metadata": "footer-meta", "aad_prefix": "",
                             "supply_aad_prefix": False}, doc["encryption"]
chunks = [c for group in doc["row_groups"] for c in group["columns"]]
assert len(chunks) == 14 and doc["problems"] == 0, (len(chunks), doc["problems"])
for chunk in chunks:
    assert chunk["encryption"] == {"key": "footer", "encrypted_column_metadata": False}, chunk
    assert chunk["num_pages"] > 0 and "errors" not in chunk, chunk["path"]
PY
CHECKS=$((CHECKS + 1))

# --- 2. Without keys: an encrypted footer cannot be read at all; a plaintext footer leaves the
# clear columns readable, and inspect shows the file's and each chunk's encryption (exit 1, as for
# any chunk it cannot read, with an error line per encrypted chunk and no statistics for them).
uniform=$SCRATCH/gcm-encrypted-uniform.parquet
split=$SCRATCH/ctr-plaintext-columns.parquet
run_expect 1 "dump of an encrypted footer without keys" -- "$TOOL" dump "$uniform"
expect_grep 'footer key is needed and was not given \(key metadata "footer-meta"\)' \
  "$SCRATCH/err" "dump without keys: the message names the footer key"
expect_one_line_error "dump of an encrypted footer without keys"
no_values "dump of an encrypted footer without keys"
run_expect 1 "inspect of an encrypted footer without keys" -- "$TOOL" inspect "$uniform"
expect_grep 'footer key' "$SCRATCH/err" "inspect without keys: the message names the footer key"
run_expect 0 "dump --column vendor_id (clear) without keys" -- "$TOOL" dump "$split" \
  --column vendor_id
cmp -s "$SCRATCH/in.vendor_id.dump" "$SCRATCH/out" ||
  fail "dump --column vendor_id without keys: differs from the input's"
CHECKS=$((CHECKS + 1))
run_expect 1 "dump --column zone (encrypted) without keys" -- "$TOOL" dump "$split" --column zone
expect_grep "column 'zone'.*the key of column 'zone' \(key metadata \"zone-meta\"\) is needed" \
  "$SCRATCH/err" "dump --column zone without keys: the message names the column and its key"
expect_one_line_error "dump --column zone without keys"
no_values "dump --column zone without keys"
run_expect 1 "dump of a plaintext footer without keys" -- "$TOOL" dump "$split"
expect_grep "column 'fare'.*the key of column 'fare' \(no key metadata\) is needed" \
  "$SCRATCH/err" "dump without keys: the message names the first encrypted column"
no_values "dump of a plaintext footer without keys (fare)" fare
no_values "dump of a plaintext footer without keys (zone)" zone
run_expect 1 "inspect of a plaintext footer without keys" -- "$TOOL" inspect "$split"
t=$SCRATCH/out
expect_grep '4 pages or column chunks could not be read' "$SCRATCH/err" \
  "inspect without keys: the chunks it could not read"
line='^encryption: +AES_GCM_CTR_V1, plaintext footer \(signed\) '
line+='\(footer key metadata "footer-meta"\)$'
expect_grep "$line" "$t" "inspect without keys: the encryption line"
expect_count 2 \
  '^    encrypted: column key \(key metadata "zone-meta"\), column metadata encrypted$' "$t" \
  "inspect without keys: zone's encrypted lines"
expect_count 2 '^    encrypted: column key, column metadata encrypted$' "$t" \
  "inspect without keys: fare's encrypted lines"
expect_count 2 "^    error: .*column 'zone'.*key of column 'zone' .*is needed" "$t" \
  "inspect without keys: zone's chunks cannot be read"
expect_count 4 '^    pages: \(no pages\)$' "$t" "inspect without keys: no pages of encrypted chunks"
expect_count 10 '^    pages: DATA_PAGE|^    pages: DICTIONARY_PAGE' "$t" \
  "inspect without keys: the pages of the clear chunks"
run_expect 1 "inspect --json of a plaintext footer without keys" -- "$TOOL" inspect "$split" \
  --json
python3 - "$SCRATCH/out" <<'PY' || fail "inspect --json of a plaintext footer without keys"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["encryption"] == {"algorithm": "AES_GCM_CTR_V1", "encrypted_footer": False,
                             "footer_key_metadata": "footer-meta", "aad_prefix": "",
                             "supply_aad_prefix": False}, doc["encryption"]
assert doc["problems"] == 4, doc["problems"]
for group in doc["row_groups"]:
    for chunk in group["columns"]:
        path = chunk["path"]
        if path in ("zone", "fare"):
            want = {"key": "column", "key_metadata": "zone-meta" if path == "zone" else "",
                    "encrypted_column_metadata": True}
            assert chunk["encryption"] == want, chunk
            # Nothing of the values: no pages, no statistics.
            assert chunk["num_pages"] == 0 and "statistics" not in chunk, chunk
            assert any(f"the key of column '{path}'" in e for e in chunk["errors"]), chunk
        else:
            assert "encryption" not in chunk and "errors" not in chunk, chunk
            assert chunk["num_pages"] > 0 and "statistics" in chunk, chunk
PY
CHECKS=$((CHECKS + 1))

# --- 3. Wrong keys: exit 1, and no values of what they were to decrypt.
run_expect 1 "dump with a wrong footer key (encrypted footer)" -- "$TOOL" dump "$uniform" \
  --footer-key "$KW"
expect_grep 'footer.*does not authenticate: a wrong key' "$SCRATCH/err" \
  "wrong footer key: the message"
expect_one_line_error "dump with a wrong footer key"
no_values "dump with a wrong footer key"
run_expect 1 "dump with a wrong footer key (plaintext footer)" -- "$TOOL" dump \
  "$SCRATCH/gcm-plaintext-columns.parquet" --footer-key "$KW" --column-key "zone=$KZ" \
  --column-key "fare=$KR"
expect_grep "plaintext footer's signature does not match: a wrong footer key" "$SCRATCH/err" \
  "wrong footer key (plaintext footer): the message"
no_values "dump with a wrong footer key (plaintext footer)"
for footer in encrypted plaintext; do
  file=$SCRATCH/gcm-$footer-columns.parquet
  run_expect 1 "dump with a wrong column key ($footer footer)" -- "$TOOL" dump "$file" \
    --footer-key "$KF" --column-key "zone=$KW" --column-key "fare=$KR"
  expect_grep "column 'zone'.*does not authenticate: a wrong key" "$SCRATCH/err" \
    "wrong column key ($footer footer): the message names the column"
  expect_one_line_error "dump with a wrong column key ($footer footer)"
  no_values "dump with a wrong column key ($footer footer)" zone
  run_expect 1 "dump --column zone with a wrong column key ($footer footer)" -- "$TOOL" dump \
    "$file" --column zone --footer-key "$KF" --column-key "zone=$KW" --column-key "fare=$KR"
  no_values "dump --column zone with a wrong column key ($footer footer)"
done

# --- 4. Key files: the same keys as the command line's, for reading (--key-file) and writing
# (--out-key-file, metadata included); a line that is not a key is a usage error naming FILE:LINE.
cat > "$SCRATCH/keys.txt" <<EOF
# the keys of the ctr-plaintext-columns copy

footer $KF
column zone $KZ
column fare $KR
EOF
same_dump "dump --key-file" "$split" --key-file "$SCRATCH/keys.txt"
cat > "$SCRATCH/out-keys.txt" <<EOF
# written keys, with the metadata stored to find them
footer $KF footer-meta
column zone $KZ zone-meta
column fare $KR
EOF
out=$SCRATCH/keyfile.parquet
run_expect 0 "recode --out-key-file" -- "$TOOL" recode "$SAMPLE" "$out" --encrypt ctr \
  --out-key-file "$SCRATCH/out-keys.txt" --plaintext-footer
expect_magic "$out" PAR1 "recode --out-key-file --plaintext-footer"
same_dump "dump --out-key-file's output with --key-file" "$out" --key-file "$SCRATCH/keys.txt"
same_dump "dump --out-key-file's output with the command line's keys" "$out" --footer-key "$KF" \
  --column-key "zone=$KZ" --column-key "fare=$KR"
run_expect 1 "inspect --out-key-file's output without keys" -- "$TOOL" inspect "$out"
# The same layout as the command line's options wrote (ctr-plaintext-columns).
grep -E '^encryption:|^    encrypted:' "$SCRATCH/out" > "$SCRATCH/keyfile.lines"
{ "$TOOL" inspect "$split" 2> /dev/null || true; } | grep -E '^encryption:|^    encrypted:' \
  > "$SCRATCH/split.lines"
cmp -s "$SCRATCH/split.lines" "$SCRATCH/keyfile.lines" ||
  fail "--out-key-file: inspect's encryption lines differ from those of the same keys as options"
CHECKS=$((CHECKS + 1))
printf '# a footer key\nfooter %s\nfooter-key %s\n' "$KF" "$KF" > "$SCRATCH/bad-keys.txt"
run_expect 2 "dump --key-file with a malformed line" -- "$TOOL" dump "$split" \
  --key-file "$SCRATCH/bad-keys.txt"
expect_grep "bad-keys.txt:3: expected 'footer HEX" "$SCRATCH/err" \
  "malformed key file: the message names FILE:LINE"
printf 'footer %s\ncolumn zone %s\n' "$KF" "${KZ:0:30}zz" > "$SCRATCH/bad-hex.txt"
run_expect 2 "dump --key-file with a key not in hex" -- "$TOOL" dump "$split" \
  --key-file "$SCRATCH/bad-hex.txt"
expect_grep "bad-hex.txt:2: .*not hex" "$SCRATCH/err" \
  "key file, bad hex: the message names FILE:LINE"
rm -f "$SCRATCH/bad.parquet"
run_expect 2 "recode --out-key-file with a malformed line" -- "$TOOL" recode "$SAMPLE" \
  "$SCRATCH/bad.parquet" --encrypt gcm --out-key-file "$SCRATCH/bad-keys.txt"
expect_grep "bad-keys.txt:3: expected 'footer HEX" "$SCRATCH/err" \
  "malformed --out-key-file: the message names FILE:LINE"
[[ ! -e $SCRATCH/bad.parquet ]] || fail "malformed --out-key-file: OUT was written"
CHECKS=$((CHECKS + 1))
# Tabs and CRLF line ends are whitespace; a key given twice is refused, not the last one taken.
printf 'footer\t%s\r\ncolumn\tzone  %s\r\ncolumn fare %s\r\n' "$KF" "$KZ" "$KR" \
  > "$SCRATCH/tabs-keys.txt"
same_dump "dump --key-file with tabs and CRLF" "$split" --key-file "$SCRATCH/tabs-keys.txt"
printf 'footer %s\nfooter %s\n' "$KF" "$KW" > "$SCRATCH/twice-keys.txt"
run_expect 2 "dump --key-file with the footer key twice" -- "$TOOL" dump "$split" \
  --key-file "$SCRATCH/twice-keys.txt"
expect_grep "twice-keys.txt:2: the footer key is given twice" "$SCRATCH/err" \
  "a key file's footer key twice: the message names FILE:LINE"

# --- 5. AAD prefixes: a stored prefix is checked against a given one; one not stored must be
# given.
out=$SCRATCH/aad-stored.parquet
run_expect 0 "recode --out-aad-prefix t1" -- "$TOOL" recode "$SAMPLE" "$out" --encrypt gcm \
  --out-footer-key "$KF" --out-aad-prefix t1
same_dump "dump of a stored AAD prefix without --aad-prefix" "$out" --footer-key "$KF"
same_dump "dump of a stored AAD prefix with --aad-prefix t1" "$out" --footer-key "$KF" \
  --aad-prefix t1
run_expect 1 "dump of a stored AAD prefix with --aad-prefix t2" -- "$TOOL" dump "$out" \
  --footer-key "$KF" --aad-prefix t2
expect_grep 'AAD prefix' "$SCRATCH/err" "--aad-prefix t2: the message names the AAD prefix"
no_values "dump of a stored AAD prefix with --aad-prefix t2"
run_expect 0 "inspect of a stored AAD prefix" -- "$TOOL" inspect "$out" --footer-key "$KF"
expect_grep '^encryption: +AES_GCM_V1, encrypted footer, AAD prefix stored \("t1"\)$' \
  "$SCRATCH/out" "inspect: the stored AAD prefix"
for footer in encrypted plaintext; do
  out=$SCRATCH/aad-not-stored-$footer.parquet
  options=(--encrypt gcm --out-footer-key "$KF" --out-aad-prefix t1 --out-aad-prefix-not-stored)
  keys=(--footer-key "$KF")
  if [[ $footer == plaintext ]]; then
    options+=(--plaintext-footer --out-column-key "zone=$KZ")
    keys+=(--column-key "zone=$KZ")
  fi
  run_expect 0 "recode --out-aad-prefix-not-stored ($footer footer)" -- "$TOOL" recode \
    "$SAMPLE" "$out" "${options[@]}"
  same_dump "dump of an AAD prefix not stored, with --aad-prefix t1 ($footer footer)" "$out" \
    "${keys[@]}" --aad-prefix t1
  run_expect 1 "dump of an AAD prefix not stored, with --aad-prefix t2 ($footer footer)" -- \
    "$TOOL" dump "$out" "${keys[@]}" --aad-prefix t2
  no_values "dump of an AAD prefix not stored, with --aad-prefix t2 ($footer footer)"
  run_expect 0 "inspect of an AAD prefix not stored ($footer footer)" -- "$TOOL" inspect "$out" \
    "${keys[@]}" --aad-prefix t1
  expect_grep '^encryption: .*, AAD prefix supplied by the reader$' "$SCRATCH/out" \
    "inspect: an AAD prefix not stored ($footer footer)"
done
out=$SCRATCH/aad-not-stored-encrypted.parquet
run_expect 1 "dump of an AAD prefix not stored, without --aad-prefix" -- "$TOOL" dump "$out" \
  --footer-key "$KF"
expect_grep 'did not store its AAD prefix: the reader must supply it' "$SCRATCH/err" \
  "no --aad-prefix: the message names the AAD prefix"
expect_one_line_error "dump of an AAD prefix not stored, without --aad-prefix"
no_values "dump of an AAD prefix not stored, without --aad-prefix"
# The plaintext footer: the clear columns stay readable to a reader without the prefix, but the
# encrypted one does not, and the message must say the prefix is what is missing.
out=$SCRATCH/aad-not-stored-plaintext.parquet
run_expect 1 "dump of an AAD prefix not stored, without --aad-prefix (plaintext footer)" -- \
  "$TOOL" dump "$out" --footer-key "$KF" --column-key "zone=$KZ"
no_values "dump of an AAD prefix not stored, without --aad-prefix (plaintext footer)" zone
# The keys were given: the message names what is missing, the AAD prefix.
check "plaintext footer, AAD prefix not stored, keys given without --aad-prefix: the message \
names the AAD prefix: $(head -1 "$SCRATCH/err")" \
  grep -q 'AAD prefix' "$SCRATCH/err"

# --- 6. Re-key: an encrypted file recoded with its keys into other keys; then decrypted.
rekeyed=$SCRATCH/rekeyed.parquet
run_expect 0 "recode re-key" -- "$TOOL" recode "$split" "$rekeyed" --key-file "$SCRATCH/keys.txt" \
  --encrypt gcm --out-footer-key "$N1" --out-column-key "receipt_url=$N2" --verify
expect_magic "$rekeyed" PARE "re-key"
run_expect 1 "dump the re-keyed file with the old keys" -- "$TOOL" dump "$rekeyed" \
  --key-file "$SCRATCH/keys.txt"
no_values "dump the re-keyed file with the old keys"
same_dump "dump the re-keyed file with the new keys" "$rekeyed" --footer-key "$N1" \
  --column-key "receipt_url=$N2"
run_expect 1 "dump the re-keyed file without receipt_url's new key" -- "$TOOL" dump "$rekeyed" \
  --footer-key "$N1"
expect_grep "the key of column 'receipt_url'" "$SCRATCH/err" \
  "re-keyed: the message names receipt_url's key"
no_values "dump the re-keyed file without receipt_url's new key" receipt_url
decrypted=$SCRATCH/decrypted.parquet
run_expect 0 "recode decrypt" -- "$TOOL" recode "$rekeyed" "$decrypted" --footer-key "$N1" \
  --column-key "receipt_url=$N2" --verify
expect_magic "$decrypted" PAR1 "decrypt"
same_dump "dump the decrypted file without keys" "$decrypted"
run_expect 0 "inspect the decrypted file" -- "$TOOL" inspect "$decrypted"
expect_count 0 '^encryption:|^    encrypted:' "$SCRATCH/out" "decrypted: no encryption left"
rm -f "$SCRATCH/bad.parquet"
run_expect 1 "recode an encrypted file without its keys" -- "$TOOL" recode "$rekeyed" \
  "$SCRATCH/bad.parquet"
expect_one_line_error "recode an encrypted file without its keys"
[[ ! -e $SCRATCH/bad.parquet ]] || fail "recode without keys: OUT was left behind"
CHECKS=$((CHECKS + 1))

# --- 7. The key tools' envelope encryption: random data keys wrapped with master keys (the
# footer's with kf, zone's and receipt_url's with kc1), double and single wrapping.
printf '# master keys\nmaster kf %s\nmaster kc1 %s\n' "$MF" "$MC" > "$SCRATCH/masters.txt"
for wrapping in double single; do
  out=$SCRATCH/kms-$wrapping.parquet
  options=()
  [[ $wrapping == single ]] && options=(--single-wrapping)
  run_expect 0 "recode --kms-footer ($wrapping wrapping)" -- "$TOOL" recode "$SAMPLE" "$out" \
    --encrypt gcm --kms-footer kf --kms-column kc1=zone,receipt_url --master-key "kf=$MF" \
    --master-key "kc1=$MC" "${options[@]}" --verify
  expect_magic "$out" PARE "recode --kms-footer ($wrapping wrapping)"
  same_dump "dump KMS ($wrapping wrapping) with the master keys" "$out" --master-key "kf=$MF" \
    --master-key "kc1=$MC"
  same_dump "dump KMS ($wrapping wrapping) with a key file's master keys" "$out" \
    --key-file "$SCRATCH/masters.txt"
  run_expect 1 "dump KMS ($wrapping wrapping) with another kc1" -- "$TOOL" dump "$out" \
    --master-key "kf=$MF" --master-key "kc1=$MX"
  expect_grep "column 'zone'.*master key \"kc1\" does not unwrap this key" "$SCRATCH/err" \
    "KMS ($wrapping wrapping), another kc1: the message names the column and the master key"
  expect_one_line_error "dump KMS ($wrapping wrapping) with another kc1"
  no_values "dump KMS ($wrapping wrapping) with another kc1 (zone)" zone
  no_values "dump KMS ($wrapping wrapping) with another kc1 (receipt_url)" receipt_url
  run_expect 1 "dump KMS ($wrapping wrapping) with another kf" -- "$TOOL" dump "$out" \
    --master-key "kf=$MX" --master-key "kc1=$MC"
  no_values "dump KMS ($wrapping wrapping) with another kf"
  run_expect 0 "inspect --json KMS ($wrapping wrapping)" -- "$TOOL" inspect "$out" --json \
    --master-key "kf=$MF" --master-key "kc1=$MC"
  python3 - "$SCRATCH/out" "$wrapping" <<'PY' || fail "inspect --json KMS ($wrapping wrapping)"
import json, sys
doc, double = json.load(open(sys.argv[1])), sys.argv[2] == "double"
footer = json.loads(doc["encryption"]["footer_key_metadata"])
assert footer["masterKeyID"] == "kf" and footer["isFooterKey"], footer
assert footer["doubleWrapping"] == double and ("wrappedKEK" in footer) == double, footer
for group in doc["row_groups"]:
    for chunk in group["columns"]:
        if chunk["path"] in ("zone", "receipt_url"):
            material = json.loads(chunk["encryption"]["key_metadata"])
            assert chunk["encryption"]["key"] == "column", chunk["encryption"]
            assert material["masterKeyID"] == "kc1" and material["doubleWrapping"] == double
        else:
            assert "encryption" not in chunk, chunk  # not named: left in the clear, as pyarrow does
PY
  CHECKS=$((CHECKS + 1))
done

# --- 8. Usage errors (exit 2), no output written.
usage_error() {
  local label=$1
  shift
  rm -f "$SCRATCH/bad.parquet"
  run_expect 2 "$label" -- "$@"
  [[ ! -e $SCRATCH/bad.parquet ]] || fail "$label: OUT was written"
  CHECKS=$((CHECKS + 1))
}
bad=$SCRATCH/bad.parquet
usage_error "--encrypt without a footer key" "$TOOL" recode "$SAMPLE" "$bad" --encrypt gcm
expect_grep "'--encrypt': needs a footer key" "$SCRATCH/err" "--encrypt without a key: message"
usage_error "--encrypt xyz" "$TOOL" recode "$SAMPLE" "$bad" --encrypt xyz --out-footer-key "$KF"
usage_error "--footer-key zz" "$TOOL" dump "$uniform" --footer-key zz
expect_grep "'--footer-key': 'zz' is not hex" "$SCRATCH/err" "--footer-key zz: message"
usage_error "--footer-key of 10 bytes" "$TOOL" dump "$uniform" --footer-key "${KF:0:20}"
expect_grep "16, 24 or 32 bytes .*not 10" "$SCRATCH/err" "a key of 10 bytes: message"
usage_error "--out-footer-key of 10 bytes" "$TOOL" recode "$SAMPLE" "$bad" --encrypt gcm \
  --out-footer-key "${KF:0:20}"
usage_error "--column-key of 10 bytes" "$TOOL" dump "$split" --column-key "zone=${KF:0:20}"
usage_error "--master-key of an odd number of digits" "$TOOL" dump "$uniform" \
  --master-key "kf=${MF:0:31}"
usage_error "--column-key without =" "$TOOL" dump "$split" --column-key zone
usage_error "--out-footer-key without --encrypt" "$TOOL" recode "$SAMPLE" "$bad" \
  --out-footer-key "$KF"
expect_grep "'--out-footer-key': is for an encrypted output" "$SCRATCH/err" \
  "--out-footer-key without --encrypt: message"
for option in --plaintext-footer --single-wrapping "--out-aad-prefix t1" "--kms-footer kf"; do
  # shellcheck disable=SC2086  # $option is one or two words
  usage_error "$option without --encrypt" "$TOOL" recode "$SAMPLE" "$bad" $option
done
usage_error "--out-aad-prefix-not-stored without a prefix" "$TOOL" recode "$SAMPLE" "$bad" \
  --encrypt gcm --out-footer-key "$KF" --out-aad-prefix-not-stored
expect_grep "needs an AAD prefix" "$SCRATCH/err" "--out-aad-prefix-not-stored: message"
usage_error "--kms-footer without its master key" "$TOOL" recode "$SAMPLE" "$bad" --encrypt gcm \
  --kms-footer kf
usage_error "--key-file that does not exist" "$TOOL" dump "$uniform" \
  --key-file "$SCRATCH/missing.txt"

# --- 9. scan and lookup with keys.
run_expect 0 "scan the input" -- "$TOOL" scan "$SAMPLE"
grep -E '^(rows|levels|values):' "$SCRATCH/out" > "$SCRATCH/in.scan"
run_expect 0 "scan with keys" -- "$TOOL" scan "$split" --key-file "$SCRATCH/keys.txt"
grep -E '^(rows|levels|values):' "$SCRATCH/out" | cmp -s "$SCRATCH/in.scan" - ||
  fail "scan with keys: rows, levels and values differ from the input's"
CHECKS=$((CHECKS + 1))
run_expect 0 "scan --arrow with keys" -- "$TOOL" scan "$uniform" --arrow --footer-key "$KF"
expect_grep '^rows: 4096$' "$SCRATCH/out" "scan --arrow with keys: rows"
run_expect 1 "scan without keys" -- "$TOOL" scan "$split"
expect_grep "the key of column 'fare'" "$SCRATCH/err" "scan without keys: the message"
# A zone and a pickup time the dump shows, looked up in the encrypted copy (zone has its own key)
# as in the input.
zone=$(grep '"path":"zone"' "$SCRATCH/in.dump" | sed 's/.*"values":\["\([0-9a-f]*\)".*/\1/')
micros=$(grep '"path":"pickup_micros"' "$SCRATCH/in.dump" |
  sed 's/.*"values":\[\([0-9]*\),.*/\1/')
[[ -n $zone && -n $micros ]] || fail "no zone or pickup_micros value found in the dump"
lookups=("zone $zone --hex" "pickup_micros $micros")
for lookup in "${lookups[@]}"; do
  # shellcheck disable=SC2086  # $lookup is the column, the value and the options
  run_expect 0 "lookup $lookup in the input" -- "$TOOL" lookup "$SAMPLE" $lookup --rows
  grep '^found in ' "$SCRATCH/out" > "$SCRATCH/in.found" ||
    fail "lookup $lookup in the input: no rows found"
  cp "$SCRATCH/in.found" "$SCRATCH/in.${lookup%% *}.found"
  # shellcheck disable=SC2086
  run_expect 0 "lookup $lookup with keys" -- "$TOOL" lookup "$split" $lookup --rows \
    --key-file "$SCRATCH/keys.txt"
  grep '^found in ' "$SCRATCH/out" | cmp -s "$SCRATCH/in.found" - ||
    fail "lookup $lookup with keys: found $(grep '^found in ' "$SCRATCH/out" | cut -c1-40), \
the input $(cut -c1-40 "$SCRATCH/in.found")"
  CHECKS=$((CHECKS + 1))
done
run_expect 0 "lookup of a clear column without keys" -- "$TOOL" lookup "$split" pickup_micros \
  "$micros" --rows
grep '^found in ' "$SCRATCH/out" | cmp -s "$SCRATCH/in.pickup_micros.found" - ||
  fail "lookup of a clear column without keys: other rows than in the input"
CHECKS=$((CHECKS + 1))
run_expect 1 "lookup of an encrypted column without keys" -- "$TOOL" lookup "$split" zone \
  "$zone" --hex --rows
expect_grep "column 'zone'.*the key of column 'zone'" "$SCRATCH/err" \
  "lookup without keys: the message names the column's key"
[[ ! -s $SCRATCH/out ]] || fail "lookup of an encrypted column without keys: stdout not empty"
# One error line, not first a warning for each row group's unreadable filter and index.
check "lookup of an encrypted column without keys: $(wc -l < "$SCRATCH/err") lines on \
stderr, not one error line" test "$(wc -l < "$SCRATCH/err")" -eq 1

# --- Options that contradict each other, or name no column: usage errors (as --column-encoding
# with an unknown path is), not silently ignored or a read error.
rm -f "$bad"
status=0
"$TOOL" recode "$SAMPLE" "$bad" --encrypt gcm --out-footer-key "$KF" \
  --out-column-key "nosuch=$KZ" > /dev/null 2> "$SCRATCH/err" || status=$?
check "--out-column-key nosuch=HEX: exit $status, expected 2 (usage, as \
--column-encoding nosuch)" test $status -eq 2
[[ ! -e $bad ]] || fail "--out-column-key nosuch: OUT was written"
# Keys given with KMS-drawn ones, or a --kms-column without --kms-footer: refused, not one of
# them silently ignored.
for contradiction in "--kms-footer kf --master-key kf=$MF --out-footer-key $KF" \
  "--out-footer-key $KF --kms-column kc1=zone --master-key kc1=$MC"; do
  rm -f "$bad"
  status=0
  # shellcheck disable=SC2086  # $contradiction is several words
  "$TOOL" recode "$SAMPLE" "$bad" --encrypt gcm $contradiction > /dev/null 2> "$SCRATCH/err" ||
    status=$?
  check "recode --encrypt gcm $contradiction: exit $status, expected 2 (contradicting or \
ignored options)" test $status -eq 2
done

passed
