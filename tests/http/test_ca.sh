#!/bin/bash
# Writes a throwaway PKI for the https target's tests into DIR (tests/http/https_target_test.cc):
# ca.pem (the CA that signed server.pem, for 127.0.0.1 and localhost), server.key, and
# other_ca.pem (a CA that signed nothing here: trusting it alone must fail the handshake).
set -euo pipefail
dir=$1
cd "$dir"
make_ca() {  # NAME
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=infergate test $1" \
    -keyout "$1.key" -out "$1.pem" 2>/dev/null
}
make_ca ca
make_ca other_ca
openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout server.key \
  -out server.csr 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
  -extfile server.ext -out server.pem 2>/dev/null
