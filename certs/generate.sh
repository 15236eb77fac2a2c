#!/usr/bin/env bash
# Regenerates every test key and certificate in this folder (mock-apns).
#
# TEST CREDENTIALS ONLY. Never trust ca.pem system-wide, never use any of
# these keys in production. Running this script replaces ALL keys and
# certificates with new ones: tests that pin a key, a certificate or a
# fingerprint must be updated afterwards.
#
# Requires only bash and the openssl CLI (OpenSSL 3.x).
set -euo pipefail

DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DAYS=7300   # ~20 years

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mock-apns-certs.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

# Runs a command silently; on failure shows its output and stops.
quiet() {
    local out
    if ! out="$("$@" 2>&1)"; then
        printf 'generate.sh: command failed: %s\n%s\n' "$*" "$out" >&2
        exit 1
    fi
}

# EC P-256 private key, unencrypted PKCS#8 PEM ("BEGIN PRIVATE KEY"),
# the same encoding as Apple's AuthKey_<KEYID>.p8 files.
newkey() {
    quiet openssl genpkey -algorithm EC \
        -pkeyopt ec_paramgen_curve:P-256 \
        -pkeyopt ec_param_enc:named_curve \
        -out "$1"
}

# Random positive serial number (at most 16 octets).
serial() {
    printf '0x%s' "$(openssl rand -hex 16 | sed 's/^./7/')"
}

# Signs CSR $1 with the test CA into certificate $2, adding the extensions
# of section $4 of config file $3.
sign() {
    quiet openssl x509 -req -in "$1" -out "$2" \
        -CA ca.pem -CAkey ca.key -set_serial "$(serial)" \
        -days "$DAYS" -sha256 \
        -extfile "$3" -extensions "$4"
}

# --------------------------------------------------------------------------
# Extension definitions.
# Apple OIDs (arc 1.2.840.113635.100.6.3):
#   .1  development (sandbox) environment      value: ASN1 NULL
#   .2  production environment                 value: ASN1 NULL
#   .6  topics: SEQUENCE { UTF8String topic, SEQUENCE { UTF8String kind }, ... }
# --------------------------------------------------------------------------
cat > ext.cnf <<'EOF'
[req]
distinguished_name = req_dn
prompt             = no

[req_dn]

[ca_ext]
basicConstraints       = critical, CA:true
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash

[server_ext]
basicConstraints       = critical, CA:false
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectAltName         = @server_san
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid

[server_san]
DNS.1 = localhost
IP.1  = 127.0.0.1
IP.2  = ::1
DNS.2 = api.push.apple.com
DNS.3 = api.sandbox.push.apple.com
DNS.4 = api.development.push.apple.com

[client_sandbox_ext]
basicConstraints         = critical, CA:false
keyUsage                 = critical, digitalSignature
extendedKeyUsage         = clientAuth
subjectKeyIdentifier     = hash
authorityKeyIdentifier   = keyid
1.2.840.113635.100.6.3.1 = ASN1:NULL

[client_production_ext]
basicConstraints         = critical, CA:false
keyUsage                 = critical, digitalSignature
extendedKeyUsage         = clientAuth
subjectKeyIdentifier     = hash
authorityKeyIdentifier   = keyid
1.2.840.113635.100.6.3.2 = ASN1:NULL

[client_multitopic_ext]
basicConstraints         = critical, CA:false
keyUsage                 = critical, digitalSignature
extendedKeyUsage         = clientAuth
subjectKeyIdentifier     = hash
authorityKeyIdentifier   = keyid
1.2.840.113635.100.6.3.1 = ASN1:NULL
1.2.840.113635.100.6.3.2 = ASN1:NULL
1.2.840.113635.100.6.3.6 = ASN1:SEQUENCE:topics

# Order of the fields below is the order in the encoded SEQUENCE.
[topics]
topic1 = UTF8String:com.example.app
kind1  = SEQUENCE:kind_app
topic2 = UTF8String:com.example.app.voip
kind2  = SEQUENCE:kind_voip
topic3 = UTF8String:com.example.app.complication
kind3  = SEQUENCE:kind_complication

[kind_app]
kind = UTF8String:app

[kind_voip]
kind = UTF8String:voip

[kind_complication]
kind = UTF8String:complication
EOF

# --------------------------------------------------------------------------
# Test CA
# --------------------------------------------------------------------------
newkey ca.key
openssl req -new -x509 -key ca.key -out ca.pem -sha256 -days "$DAYS" \
    -set_serial "$(serial)" \
    -subj "/O=mock-apns/CN=mock-apns Test CA" \
    -config ext.cnf -extensions ca_ext

# --------------------------------------------------------------------------
# Server certificate (localhost + the APNs host names)
# --------------------------------------------------------------------------
newkey server.key
openssl req -new -key server.key -out server.csr \
    -subj "/O=mock-apns/CN=localhost" -config ext.cnf
sign server.csr server.pem ext.cnf server_ext

# --------------------------------------------------------------------------
# Token-signing keys (.p8) and their public keys
# --------------------------------------------------------------------------
for kid in TESTKEY001 OTHERKEY01; do
    newkey "AuthKey_${kid}.p8"
    openssl pkey -in "AuthKey_${kid}.p8" -pubout -out "AuthKey_${kid}.pub.pem"
done

# --------------------------------------------------------------------------
# Client certificates (certificate-based auth, Apple Push Services layout)
# --------------------------------------------------------------------------
client() {  # name  common-name  extension-section
    newkey "client-$1.key"
    openssl req -new -key "client-$1.key" -out "client-$1.csr" -config ext.cnf \
        -subj "/UID=com.example.app/CN=$2/OU=TESTTEAM01/O=Example Inc./C=US"
    sign "client-$1.csr" "client-$1.pem" ext.cnf "$3"
}
client sandbox    "Apple Development IOS Push Services: com.example.app" client_sandbox_ext
client production "Apple Push Services: com.example.app"                 client_production_ext
client multitopic "Apple Push Services: com.example.app"                 client_multitopic_ext

# --------------------------------------------------------------------------
# Machine-readable summary
# --------------------------------------------------------------------------
cat > keys.json <<'EOF'
{
  "ca": "ca.pem",
  "server": {"certificate": "server.pem", "key": "server.key"},
  "keys": [
    {"teamID": "TESTTEAM01", "keyID": "TESTKEY001", "p8": "AuthKey_TESTKEY001.p8", "publicKey": "AuthKey_TESTKEY001.pub.pem"},
    {"teamID": "OTHERTEAM1", "keyID": "OTHERKEY01", "p8": "AuthKey_OTHERKEY01.p8", "publicKey": "AuthKey_OTHERKEY01.pub.pem"}
  ],
  "clientCertificates": [
    {"file": "client-sandbox.pem", "key": "client-sandbox.key", "teamID": "TESTTEAM01", "bundleID": "com.example.app", "topics": ["com.example.app"], "environments": ["sandbox"]},
    {"file": "client-production.pem", "key": "client-production.key", "teamID": "TESTTEAM01", "bundleID": "com.example.app", "topics": ["com.example.app"], "environments": ["production"]},
    {"file": "client-multitopic.pem", "key": "client-multitopic.key", "teamID": "TESTTEAM01", "bundleID": "com.example.app", "topics": ["com.example.app", "com.example.app.voip", "com.example.app.complication"], "environments": ["sandbox", "production"]}
  ]
}
EOF

# --------------------------------------------------------------------------
# Sanity checks, then install into the folder of this script.
# --------------------------------------------------------------------------
quiet openssl verify -CAfile ca.pem server.pem client-sandbox.pem \
    client-production.pem client-multitopic.pem
quiet openssl verify -purpose sslserver -CAfile ca.pem server.pem
quiet openssl verify -purpose sslclient -CAfile ca.pem client-sandbox.pem \
    client-production.pem client-multitopic.pem

OUTPUTS=(
    ca.key ca.pem server.key server.pem
    AuthKey_TESTKEY001.p8 AuthKey_TESTKEY001.pub.pem
    AuthKey_OTHERKEY01.p8 AuthKey_OTHERKEY01.pub.pem
    client-sandbox.key client-sandbox.pem
    client-production.key client-production.pem
    client-multitopic.key client-multitopic.pem
    keys.json
)
for f in "${OUTPUTS[@]}"; do
    chmod 644 "$f"   # test fixtures, committed; git does not keep modes anyway
    mv -f "$f" "$DIR/$f"
done

echo "Generated in $DIR:"
printf '  %s\n' "${OUTPUTS[@]}"

# --------------------------------------------------------------------------
# Embed the server pair, the CA and the default signing key in the library,
# so that `mock-apns serve` works from any folder with no files at hand.
# --------------------------------------------------------------------------
"$DIR/embed.sh"
