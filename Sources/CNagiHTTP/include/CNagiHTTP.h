#ifndef CNAGI_HTTP_H
#define CNAGI_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Starts libmicrohttpd on a socket already bound and listening (`listen_socket`, which the daemon then owns), or
/// with none when it is -1 (connections are then handed to it with `MHD_add_connection`), a thread per connection,
/// with the given limits. `MHD_start_daemon` is variadic and does not import into
/// Swift; this is its one call. Returns NULL when the daemon cannot start (errno says why).
///
/// - `connection_limit`: connections at once (each has its own thread);
/// - `per_address_limit`: connections at once from one address (0: no limit);
/// - `idle_timeout_seconds`: a connection idle this long is closed (slow and unfinished requests included);
/// - `memory_limit`: bytes of a connection's buffer for the request line and headers: a request whose line
///   and headers do not fit is answered 414 or 431 by the library;
/// - `ipv6`: whether the socket is an IPv6 one;
/// - `connection_notice`: told when a connection opens and closes (its socket context is the caller's);
/// - `uri_log`: told each request's raw target (before percent-decoding) as soon as its request line is read; what
///   it returns is the request's first `*con_cls`;
/// - `tls_certificate_pem`, `tls_key_pem`: HTTPS through libmicrohttpd's GnuTLS with this certificate and key (PEM,
///   copied by the library), or plain HTTP when NULL.
struct MHD_Daemon *nagi_http_start(int listen_socket, int ipv6, unsigned int connection_limit,
                                   unsigned int per_address_limit, unsigned int idle_timeout_seconds,
                                   size_t memory_limit, MHD_AccessHandlerCallback handler, void *handler_context,
                                   MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback connection_notice,
                                   void *(*uri_log)(void *context, const char *uri, struct MHD_Connection *connection),
                                   void *context, const char *tls_certificate_pem, const char *tls_key_pem);

/// Whether this libmicrohttpd serves HTTPS (built with GnuTLS, as Debian's is): 1 or 0.
int nagi_http_supports_tls(void);

/// A duplicate of the connection's socket (close-on-exec), -1 when there is none: the caller's own descriptor of
/// the same socket, so that a `shutdown` through it can never reach another connection's socket (the
/// library's descriptor number may be reused once it closes it).
int nagi_http_duplicate_socket(struct MHD_Connection *connection);

/// The client's address as text ("127.0.0.1", "::1") into `buffer` of `size` bytes: 0, or -1 when unknown.
int nagi_http_client_address(struct MHD_Connection *connection, char *buffer, size_t size);

/// `address` (IPv4 or IPv6) as text ("127.0.0.1", "::1") into `buffer` of `size` bytes: 0, or -1 for another family.
int nagi_http_address_text(const struct sockaddr *address, char *buffer, size_t size);

/// `accept4` with close-on-exec (Swift's Glibc has no `accept4`): the new socket, or -1 with errno; `address`
/// and `length` as `accept` fills them.
int nagi_http_accept(int listen_socket, struct sockaddr *address, socklen_t *length);

/// Counts now as the connection's last activity, keeping its idle timeout at `idle_timeout_seconds`: after the
/// server itself was busy (a render waiting its turn, an album being exported), so that libmicrohttpd does not take
/// the server's own work for an idle client. Call it on the connection's own thread.
void nagi_http_touch(struct MHD_Connection *connection, unsigned int idle_timeout_seconds);

/// A pipe whose ends close on exec, its buffer grown to `byte_count` where the system allows (a smaller one is
/// kept otherwise): 0, or -1 with errno.
int nagi_http_pipe(int ends[2], int byte_count);

/// A nameless file in `folder` for reading and writing (O_TMPFILE, or a name unlinked at once where the file
/// system has none), closed on exec: its descriptor, or -1 with errno. The file is gone when the descriptor closes.
int nagi_http_spool_file(const char *folder);

/// The socket of `connection` (libmicrohttpd's `MHD_get_connection_info` is variadic and does not import into
/// Swift), or -1.
int nagi_http_connection_socket(struct MHD_Connection *connection);

/// Whether the client at the other end of `socket` has closed or reset its side (poll's POLLRDHUP, POLLHUP or
/// POLLERR, without waiting): a request's client gone while its answer is made. 0 for -1.
int nagi_http_peer_gone(int socket);

#endif
