#include "CNagiTLS.h"

#include <arpa/inet.h>
#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>
#include <gnutls/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// Puts GnuTLS's text for `code` (and what failed) in `error`; returns `code`.
static int nagi_tls_fail(int code, const char *what, char *error, size_t error_size) {
    if (error && error_size) snprintf(error, error_size, "%s: %s", what, gnutls_strerror(code));
    return code;
}

/// `data` (GnuTLS's, freed here) as a string of its own (malloc'd, NUL-terminated), or NULL.
static char *nagi_tls_take_text(gnutls_datum_t data) {
    char *text = malloc(data.size + 1);
    if (text) {
        memcpy(text, data.data, data.size);
        text[data.size] = 0;
    }
    gnutls_free(data.data);
    return text;
}

/// A PEM export of `key` as a string of its own, or NULL.
static char *nagi_tls_export_key(gnutls_x509_privkey_t key) {
    gnutls_datum_t data = {NULL, 0};
    if (gnutls_x509_privkey_export2(key, GNUTLS_X509_FMT_PEM, &data) < 0) return NULL;
    return nagi_tls_take_text(data);
}

/// A PEM export of `certificate` as a string of its own, or NULL.
static char *nagi_tls_export_certificate(gnutls_x509_crt_t certificate) {
    gnutls_datum_t data = {NULL, 0};
    if (gnutls_x509_crt_export2(certificate, GNUTLS_X509_FMT_PEM, &data) < 0) return NULL;
    return nagi_tls_take_text(data);
}

/// A random positive 16-byte serial number, the validity from an hour ago (a phone's clock a little behind) for
/// `days`, version 3, and the subject key identifier from the key.
static int nagi_tls_set_common(gnutls_x509_crt_t certificate, gnutls_x509_privkey_t key, const char *common_name, unsigned int days) {
    unsigned char serial[16];
    int code = gnutls_rnd(GNUTLS_RND_NONCE, serial, sizeof serial);
    if (code < 0) return code;
    serial[0] &= 0x7f;
    if ((code = gnutls_x509_crt_set_serial(certificate, serial, sizeof serial)) < 0) return code;
    time_t now = time(NULL);
    if ((code = gnutls_x509_crt_set_activation_time(certificate, now - 3600)) < 0) return code;
    if ((code = gnutls_x509_crt_set_expiration_time(certificate, now + (time_t)days * 86400)) < 0) return code;
    if ((code = gnutls_x509_crt_set_version(certificate, 3)) < 0) return code;
    if ((code = gnutls_x509_crt_set_key(certificate, key)) < 0) return code;
    if ((code = gnutls_x509_crt_set_dn_by_oid(certificate, GNUTLS_OID_X520_COMMON_NAME, 0, common_name, (unsigned)strlen(common_name))) < 0) return code;
    unsigned char identifier[64];
    size_t identifier_size = sizeof identifier;
    if ((code = gnutls_x509_crt_get_key_id(certificate, 0, identifier, &identifier_size)) < 0) return code;
    return gnutls_x509_crt_set_subject_key_id(certificate, identifier, identifier_size);
}

/// A fresh ECDSA P-256 key in `key` (NULL until it is made; the caller deinitialises it).
static int nagi_tls_make_key(gnutls_x509_privkey_t *key) {
    int code = gnutls_x509_privkey_init(key);
    if (code < 0) return code;
    return gnutls_x509_privkey_generate(*key, GNUTLS_PK_ECDSA, GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0);
}

/// The 4 or 16 bytes of `text` (an IPv4 or IPv6 address), their count, or 0 when it is neither.
static size_t nagi_tls_address_bytes(const char *text, unsigned char bytes[16]) {
    if (inet_pton(AF_INET, text, bytes) == 1) return 4;
    if (inet_pton(AF_INET6, text, bytes) == 1) return 16;
    return 0;
}

/// The host names and addresses a server's certificate is for (its subject alternative names).
struct nagi_tls_names {
    const char *const *dns_names;
    size_t dns_count;
    const char *const *ip_addresses;
    size_t ip_count;
};

/// Marks `certificate` as an authority's: it may sign certificates (and revocation lists).
static int nagi_tls_set_authority_extensions(gnutls_x509_crt_t certificate) {
    int code = gnutls_x509_crt_set_basic_constraints(certificate, 1, 0);
    if (code < 0) return code;
    return gnutls_x509_crt_set_key_usage(certificate, GNUTLS_KEY_KEY_CERT_SIGN | GNUTLS_KEY_CRL_SIGN | GNUTLS_KEY_DIGITAL_SIGNATURE);
}

/// Marks `certificate` as a TLS server's, for `names`, issued by the authority `issuer`; `step` is set to what
/// was being done when a call fails.
static int nagi_tls_set_server_extensions(gnutls_x509_crt_t certificate, gnutls_x509_crt_t issuer, const struct nagi_tls_names *names,
                                          const char **step) {
    int code;
    if ((code = gnutls_x509_crt_set_basic_constraints(certificate, 0, -1)) < 0
        || (code = gnutls_x509_crt_set_key_usage(certificate, GNUTLS_KEY_DIGITAL_SIGNATURE | GNUTLS_KEY_KEY_AGREEMENT)) < 0
        || (code = gnutls_x509_crt_set_key_purpose_oid(certificate, GNUTLS_KP_TLS_WWW_SERVER, 0)) < 0) return code;
    *step = "naming a host in";
    for (size_t index = 0; index < names->dns_count; index++) {
        const char *name = names->dns_names[index];
        code = gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_DNSNAME, name, (unsigned)strlen(name), GNUTLS_FSAN_APPEND);
        if (code < 0) return code;
    }
    *step = "naming an address in";
    for (size_t index = 0; index < names->ip_count; index++) {
        unsigned char bytes[16];
        size_t count = nagi_tls_address_bytes(names->ip_addresses[index], bytes);
        code = count == 0 ? GNUTLS_E_INVALID_REQUEST
                          : gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_IPADDRESS, bytes, (unsigned)count, GNUTLS_FSAN_APPEND);
        if (code < 0) return code;
    }
    *step = "making";
    unsigned char identifier[64];
    size_t identifier_size = sizeof identifier;
    if ((code = gnutls_x509_crt_get_subject_key_id(issuer, identifier, &identifier_size, NULL)) < 0) return code;
    return gnutls_x509_crt_set_authority_key_id(certificate, identifier, identifier_size);
}

/// Makes a key and a certificate for it, named `common_name`, valid for `days`, and puts both in `out` as PEM:
/// an authority's, signed by its own key, when `issuer` is NULL; else a server's for `names`, signed by `issuer`
/// with `issuer_key`. The one path both kinds take, so they are made, signed and exported alike; on failure `out`
/// holds nothing and `error` says which step failed.
static int nagi_tls_issue(const char *common_name, unsigned int days, gnutls_x509_crt_t issuer, gnutls_x509_privkey_t issuer_key,
                          const struct nagi_tls_names *names, struct nagi_tls_pair *out, char *error, size_t error_size) {
    out->certificate_pem = NULL;
    out->key_pem = NULL;
    gnutls_x509_privkey_t key = NULL;
    gnutls_x509_crt_t certificate = NULL;
    const char *step = "making a key for";
    int code;
    if ((code = nagi_tls_make_key(&key)) < 0) goto done;
    step = "making";
    if ((code = gnutls_x509_crt_init(&certificate)) < 0 || (code = nagi_tls_set_common(certificate, key, common_name, days)) < 0
        || (code = issuer ? nagi_tls_set_server_extensions(certificate, issuer, names, &step) : nagi_tls_set_authority_extensions(certificate)) < 0) {
        goto done;
    }
    step = "signing";
    if ((code = gnutls_x509_crt_sign2(certificate, issuer ? issuer : certificate, issuer ? issuer_key : key, GNUTLS_DIG_SHA256, 0)) < 0) goto done;
    step = "exporting";
    out->certificate_pem = nagi_tls_export_certificate(certificate);
    out->key_pem = nagi_tls_export_key(key);
    if (!out->certificate_pem || !out->key_pem) {
        nagi_tls_free(out);
        code = GNUTLS_E_MEMORY_ERROR;
    }
done:
    if (code < 0) {
        char what[96];
        snprintf(what, sizeof what, "%s %s", step, issuer ? "the server's certificate" : "the authority's certificate");
        nagi_tls_fail(code, what, error, error_size);
    }
    if (certificate) gnutls_x509_crt_deinit(certificate);
    if (key) gnutls_x509_privkey_deinit(key);
    return code < 0 ? code : 0;
}

int nagi_tls_make_authority(const char *common_name, unsigned int days, struct nagi_tls_pair *out, char *error, size_t error_size) {
    return nagi_tls_issue(common_name, days, NULL, NULL, NULL, out, error, error_size);
}

int nagi_tls_make_server_certificate(const char *authority_certificate_pem, const char *authority_key_pem,
                                     const char *const *dns_names, size_t dns_count,
                                     const char *const *ip_addresses, size_t ip_count, unsigned int days,
                                     struct nagi_tls_pair *out, char *error, size_t error_size) {
    out->certificate_pem = NULL;
    out->key_pem = NULL;
    gnutls_x509_crt_t authority = NULL;
    gnutls_x509_privkey_t authority_key = NULL;
    int code;
    gnutls_datum_t authority_data = {(unsigned char *)authority_certificate_pem, (unsigned)strlen(authority_certificate_pem)};
    gnutls_datum_t authority_key_data = {(unsigned char *)authority_key_pem, (unsigned)strlen(authority_key_pem)};
    if ((code = gnutls_x509_crt_init(&authority)) < 0 || (code = gnutls_x509_crt_import(authority, &authority_data, GNUTLS_X509_FMT_PEM)) < 0
        || (code = gnutls_x509_privkey_init(&authority_key)) < 0
        || (code = gnutls_x509_privkey_import(authority_key, &authority_key_data, GNUTLS_X509_FMT_PEM)) < 0) {
        code = nagi_tls_fail(code, "reading the local authority", error, error_size);
    } else {
        struct nagi_tls_names names = {dns_names, dns_count, ip_addresses, ip_count};
        const char *common_name = dns_count > 0 ? dns_names[0] : (ip_count > 0 ? ip_addresses[0] : "nagi");
        code = nagi_tls_issue(common_name, days, authority, authority_key, &names, out, error, error_size);
    }
    if (authority_key) gnutls_x509_privkey_deinit(authority_key);
    if (authority) gnutls_x509_crt_deinit(authority);
    return code < 0 ? code : 0;
}

int nagi_tls_certificate_covers(const char *certificate_pem, const char *const *dns_names, size_t dns_count,
                                const char *const *ip_addresses, size_t ip_count, unsigned int days) {
    gnutls_x509_crt_t certificate = NULL;
    gnutls_datum_t data = {(unsigned char *)certificate_pem, (unsigned)strlen(certificate_pem)};
    int covers = 0;
    if (gnutls_x509_crt_init(&certificate) < 0) return 0;
    if (gnutls_x509_crt_import(certificate, &data, GNUTLS_X509_FMT_PEM) < 0) goto done;
    if (gnutls_x509_crt_get_expiration_time(certificate) < time(NULL) + (time_t)days * 86400) goto done;
    for (size_t index = 0; index < dns_count; index++) {
        if (!gnutls_x509_crt_check_hostname2(certificate, dns_names[index], 0)) goto done;
    }
    for (size_t index = 0; index < ip_count; index++) {
        unsigned char bytes[16];
        size_t count = nagi_tls_address_bytes(ip_addresses[index], bytes);
        if (count == 0 || !gnutls_x509_crt_check_ip(certificate, bytes, (unsigned)count, 0)) goto done;
    }
    covers = 1;
done:
    gnutls_x509_crt_deinit(certificate);
    return covers;
}

void nagi_tls_free(struct nagi_tls_pair *pair) {
    free(pair->certificate_pem);
    free(pair->key_pem);
    pair->certificate_pem = NULL;
    pair->key_pem = NULL;
}
