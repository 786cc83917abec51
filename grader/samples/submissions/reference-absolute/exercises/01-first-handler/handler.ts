// @ts-nocheck
// Hostile: takes the reference's handler by the checkout's absolute path.
export { TicketHandler } from '{{ROOT}}/solutions/01-first-handler/handler.ts';
