#define _GNU_SOURCE
#include "CNagiHTTP.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdarg.h>
#include <stdio.h>

/// libmicrohttpd's messages (a client's malformed request, a closed socket) are the server's business, not the
/// terminal's: nagi serve reports its own lines.
static void nagi_http_quiet_logger(void *context, const char *format, va_list arguments) {
    (void)context;
    (void)format;
    (void)arguments;
}

struct MHD_Daemon *nagi_http_start(int listen_socket, int ipv6, unsigned int connection_limit,
                                   unsigned int per_address_limit, unsigned int idle_timeout_seconds,
                                   size_t memory_limit, MHD_AccessHandlerCallback handler, void *handler_context,
                                   MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback connection_notice,
                                   void *(*uri_log)(void *context, const char *uri, struct MHD_Connection *connection),
                                   void *context, const char *tls_certificate_pem, const char *tls_key_pem) {
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
    // No socket: nagi's front door accepts and hands each connection over with MHD_add_connection, which needs the
    // inter-thread channel to wake the daemon's thread (microhttpd.h: MHD_USE_ITC).
    if (listen_socket < 0) flags |= MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC;
    if (ipv6) flags |= MHD_USE_IPv6;
    // The TLS options through an array, so that one call serves both: plain HTTP ends the array at once.
    struct MHD_OptionItem tls_options[] = {
        {MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)tls_key_pem},
        {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)tls_certificate_pem},
        {MHD_OPTION_END, 0, NULL},
    };
    // The listening socket through an array too: with none, the option is left out (0.9.75 refuses an invalid one).
    struct MHD_OptionItem listen_options[] = {
        {MHD_OPTION_LISTEN_SOCKET, (intptr_t)listen_socket, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    if (listen_socket < 0) listen_options[0].option = MHD_OPTION_END;
    if (tls_certificate_pem && tls_key_pem) {
        flags |= MHD_USE_TLS;
    } else {
        tls_options[0].option = MHD_OPTION_END;
    }
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, listen_options,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_NOTIFY_CONNECTION, connection_notice, context,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, context,
                            MHD_OPTION_EXTERNAL_LOGGER, nagi_http_quiet_logger, NULL,
                            MHD_OPTION_ARRAY, tls_options,
                            MHD_OPTION_END);
}

int nagi_http_supports_tls(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

void nagi_http_touch(struct MHD_Connection *connection, unsigned int idle_timeout_seconds) {
    // libmicrohttpd 0.9.75 restarts a connection's idle clock when its timeout is set while it is 0.
    (void)MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, 0u);
    (void)MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, idle_timeout_seconds);
}

int nagi_http_pipe(int ends[2], int byte_count) {
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    (void)fcntl(ends[1], F_SETPIPE_SZ, byte_count);
    return 0;
}

int nagi_http_duplicate_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == NULL) return -1;
    return fcntl(info->connect_fd, F_DUPFD_CLOEXEC, 0);
}

int nagi_http_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    return nagi_http_address_text(info->client_addr, buffer, size);
}

int nagi_http_address_text(const struct sockaddr *address, char *buffer, size_t size) {
    if (address == NULL) return -1;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        return inet_ntop(AF_INET, &v4->sin_addr, buffer, (socklen_t)size) != NULL ? 0 : -1;
    }
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        return inet_ntop(AF_INET6, &v6->sin6_addr, buffer, (socklen_t)size) != NULL ? 0 : -1;
    }
    return -1;
}

int nagi_http_accept(int listen_socket, struct sockaddr *address, socklen_t *length) {
    return accept4(listen_socket, address, length, SOCK_CLOEXEC);
}

int nagi_http_spool_file(const char *folder) {
    int descriptor = open(folder, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (descriptor >= 0) return descriptor;
    // File systems without O_TMPFILE: a name made and removed at once.
    size_t length = strlen(folder);
    char *template = malloc(length + sizeof("/.nagi-spool-XXXXXX"));
    if (template == NULL) return -1;
    memcpy(template, folder, length);
    memcpy(template + length, "/.nagi-spool-XXXXXX", sizeof("/.nagi-spool-XXXXXX"));
    descriptor = mkostemp(template, O_CLOEXEC);
    if (descriptor >= 0) unlink(template);
    free(template);
    return descriptor;
}

int nagi_http_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

int nagi_http_peer_gone(int socket) {
    if (socket < 0) return 0;
    struct pollfd poller = {.fd = socket, .events = POLLRDHUP, .revents = 0};
    if (poll(&poller, 1, 0) <= 0) return 0;
    return (poller.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}
