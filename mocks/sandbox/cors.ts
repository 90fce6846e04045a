/** Permissive CORS (as the Prism mock does), so browser apps on another origin can call the sandbox. */
import type { FastifyInstance } from "fastify";

export function installCors(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    reply.header("access-control-allow-origin", request.headers.origin ?? "*");
    reply.header("access-control-allow-credentials", "true");
    reply.header("access-control-expose-headers", "x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after");
    if (request.method === "OPTIONS") {
      reply.header("access-control-allow-methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
      reply.header("access-control-allow-headers", request.headers["access-control-request-headers"] ?? "authorization, x-api-key, content-type, prefer, x-service-org-id");
      reply.header("access-control-max-age", "600");
    }
  });
  // Preflight requests: answered before authentication and rate limiting.
  app.options("/*", async (_request, reply) => reply.code(204).send());
}
