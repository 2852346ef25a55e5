// The route check lives in @basalt/db, shared with the API (which reads engines' SLOWLOG).
export { kernelRoute, requireHostRoute, UnroutedAddressError, type RouteLookup } from '@basalt/db';
