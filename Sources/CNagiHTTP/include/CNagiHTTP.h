#ifndef CNAGI_HTTP_H
#define CNAGI_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Starts libmicrohttpd on a socket already bound and listening (`listen_socket`, which the daemon then owns),
/// a thread per connection, with the given limits. `MHD_start_daemon` is variadic and does not import into
/// Swift; this is its one call. Returns NULL when the daemon cannot start (errno says why).
///
/// - `connection_limit`: connections at once (each has its own thread);
/// - `per_address_limit`: connections at once from one address (0: no limit);
/// - `idle_timeout_seconds`: a connection idle this long is closed (slow and unfinished requests included);
/// - `memory_limit`: bytes of a connection's buffer for the request line and headers: a request whose line
///   and headers do not fit is answered 414 or 431 by the library;
/// - `ipv6`: whether the socket is an IPv6 one;
/// - `tls_certificate_pem`, `tls_key_pem`: HTTPS through libmicrohttpd's GnuTLS with this certificate and key (PEM,
///   copied by the library), or plain HTTP when NULL.
struct MHD_Daemon *nagi_http_start(int listen_socket, int ipv6, unsigned int connection_limit,
                                   unsigned int per_address_limit, unsigned int idle_timeout_seconds,
                                   size_t memory_limit, MHD_AccessHandlerCallback handler, void *handler_context,
                                   MHD_RequestCompletedCallback completed, void *completed_context,
                                   const char *tls_certificate_pem, const char *tls_key_pem);

/// Whether this libmicrohttpd serves HTTPS (built with GnuTLS, as Debian's is): 1 or 0.
int nagi_http_supports_tls(void);

/// Counts now as the connection's last activity, keeping its idle timeout at `idle_timeout_seconds`: after the
/// server itself was busy (a render waiting its turn, an album being exported), so that libmicrohttpd does not take
/// the server's own work for an idle client. Call it on the connection's own thread.
void nagi_http_touch(struct MHD_Connection *connection, unsigned int idle_timeout_seconds);

/// A pipe whose ends close on exec, its buffer grown to `byte_count` where the system allows (a smaller one is
/// kept otherwise): 0, or -1 with errno.
int nagi_http_pipe(int ends[2], int byte_count);

#endif
