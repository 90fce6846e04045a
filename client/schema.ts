/**
 * The one place the client takes its OpenAPI types from (openapi-typescript output), and the
 * shapes the helpers work with, derived from it.
 */
import type { paths } from "../generated/schema.js";

export type { paths, components, operations } from "../generated/schema.js";

type Json200<Op> = Op extends { responses: { 200: { content: { "application/json": infer Body } } } } ? Body : never;
type Query<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type PeopleQuery = Query<paths["/people"]["get"]>;
export type PeoplePage = Json200<paths["/people"]["get"]>;
export type TargetMembersQuery = Query<paths["/targets/{id}/members"]["get"]>;
export type TargetMembersPage = Json200<paths["/targets/{id}/members"]["get"]>;
export type EventsQuery = Query<paths["/events"]["get"]>;
export type EventsPage = Json200<paths["/events"]["get"]>;
/** One profile-change event of GET /events. */
export type TalentGraphEvent = EventsPage["data"][number];
