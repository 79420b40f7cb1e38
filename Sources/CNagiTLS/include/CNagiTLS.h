#ifndef CNAGI_TLS_H
#define CNAGI_TLS_H

#include <stddef.h>

/// A certificate and its private key, both PEM text that the caller frees with `nagi_tls_free` (NULL when the call
/// failed).
struct nagi_tls_pair {
    char *certificate_pem;
    char *key_pem;
};

/// Makes a local certificate authority through GnuTLS: a new ECDSA P-256 key and a self-signed CA certificate
/// (basic constraints CA, path length 0; key usage certificate and CRL signing) named `common_name`, valid from an
/// hour ago for `days` days. Returns 0, or a negative GnuTLS error code with its text in `error`.
int nagi_tls_make_authority(const char *common_name, unsigned int days, struct nagi_tls_pair *out, char *error, size_t error_size);

/// Makes a server certificate signed by the authority (`authority_certificate_pem`, `authority_key_pem`): a new
/// ECDSA P-256 key; the subject alternative names `dns_names` (host names) and `ip_addresses` (IPv4 or IPv6 in
/// their usual text); extended key usage TLS server; valid from an hour ago for `days` days (browsers take at most
/// 825, Apple's limit for a locally trusted authority). The first DNS name, or else the first address, is also
/// the common name. Returns 0, or a negative GnuTLS error code with its text in `error`.
int nagi_tls_make_server_certificate(const char *authority_certificate_pem, const char *authority_key_pem,
                                     const char *const *dns_names, size_t dns_count,
                                     const char *const *ip_addresses, size_t ip_count, unsigned int days,
                                     struct nagi_tls_pair *out, char *error, size_t error_size);

/// Whether `certificate_pem` (a server certificate) names every one of `dns_names` and `ip_addresses` and is
/// valid for at least `days` more days: 1 yes, 0 no (or it cannot be read).
int nagi_tls_certificate_covers(const char *certificate_pem, const char *const *dns_names, size_t dns_count,
                                const char *const *ip_addresses, size_t ip_count, unsigned int days);

/// Frees what a call above put in `pair`.
void nagi_tls_free(struct nagi_tls_pair *pair);

#endif
