// Swift-importable view of OpenSSL 3. Macros Swift cannot import get prefixed static inline wrappers.
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/bio.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
#include <openssl/core_names.h>

static inline int COpenSSL_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

static inline long COpenSSL_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}

static inline long COpenSSL_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER(void) { return SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER; }
static inline long COpenSSL_SSL_MODE_ENABLE_PARTIAL_WRITE(void) { return SSL_MODE_ENABLE_PARTIAL_WRITE; }
static inline long COpenSSL_SSL_MODE_RELEASE_BUFFERS(void) { return SSL_MODE_RELEASE_BUFFERS; }

static inline uint64_t COpenSSL_SSL_OP_NO_COMPRESSION(void) { return SSL_OP_NO_COMPRESSION; }
static inline uint64_t COpenSSL_SSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline uint64_t COpenSSL_SSL_OP_CIPHER_SERVER_PREFERENCE(void) { return SSL_OP_CIPHER_SERVER_PREFERENCE; }

static inline int COpenSSL_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }

static inline long COpenSSL_BIO_get_mem_data(BIO *bio, char **pp) { return BIO_get_mem_data(bio, pp); }
static inline int COpenSSL_BIO_ctrl_pending(BIO *bio) { return (int)BIO_ctrl_pending(bio); }

static inline int COpenSSL_SSL_TLSEXT_ERR_OK(void) { return SSL_TLSEXT_ERR_OK; }
static inline int COpenSSL_SSL_TLSEXT_ERR_ALERT_FATAL(void) { return SSL_TLSEXT_ERR_ALERT_FATAL; }
static inline int COpenSSL_SSL_TLSEXT_ERR_NOACK(void) { return SSL_TLSEXT_ERR_NOACK; }

static inline int COpenSSL_SSL_VERIFY_PEER(void) { return SSL_VERIFY_PEER; }
static inline int COpenSSL_SSL_VERIFY_NONE(void) { return SSL_VERIFY_NONE; }

static inline void COpenSSL_SSL_CTX_set_alpn_select_cb(
    SSL_CTX *ctx,
    int (*cb)(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
              unsigned int inlen, void *arg),
    void *arg) {
    SSL_CTX_set_alpn_select_cb(ctx, cb, arg);
}

static inline void COpenSSL_OPENSSL_free(void *pointer) { OPENSSL_free(pointer); }

/// Accepts any client certificate at the TLS layer: which topics it may push to is APNs's decision,
/// made per request, so the handshake itself must not fail on an unknown issuer.
static int COpenSSL_accept_any_certificate(int preverify_ok, X509_STORE_CTX *ctx) {
    (void)preverify_ok;
    (void)ctx;
    return 1;
}

static inline void COpenSSL_SSL_CTX_request_client_certificate(SSL_CTX *ctx) {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, COpenSSL_accept_any_certificate);
}

#endif
