/**
 * The Host check of the local servers (sandbox and mock) against DNS rebinding: a page on another site can
 * point its own name at 127.0.0.1 and then send requests that the browser treats as same-origin with that
 * page, so the `Host` header still carries the page's name. A request is answered only when its Host is a
 * loopback name (`localhost`, `*.localhost`), an IP address (no name to rebind), or a name the server was
 * told to serve (`--host`, `--allowed-host`). A request over HTTP without a Host is refused with a 400
 * (NO_HOST_MESSAGE), in the reference's shape.
 */

export const NO_HOST_MESSAGE = "A request needs a Host header";

/** The host name of a Host header value, lower case, without port or trailing dot; null when it is malformed. */
export function hostNameOf(host: string): string | null {
  const value = host.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) return `[${bracketed[1]}]`;
  const named = /^([a-z0-9_.-]+?)\.?(?::\d{1,5})?$/.exec(value);
  return named ? named[1]! : null;
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** Why a request's Host is refused (a message for the reference's error shape), or null when it is served. */
export function foreignHostProblem(host: string, allowed: readonly string[]): string | null {
  const name = hostNameOf(host);
  if (name !== null) {
    if (name === "localhost" || name.endsWith(".localhost") || IPV4.test(name) || name.startsWith("[")) return null;
    if (allowed.some((a) => hostNameOf(a) === name)) return null;
  }
  return (
    `This server answers only requests addressed to a loopback name, an IP address or a name given with ` +
    `--host or --allowed-host, not Host ${JSON.stringify(host.slice(0, 200))}`
  );
}
