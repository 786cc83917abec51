// @ts-nocheck
// Hostile: climbs out with many ../ to reach the reference's handler.
export { TicketHandler } from '../../../../../../../../../../../../solutions/01-first-handler/handler.ts';
