// The whole data model of docs/rules.md §2. Money is integer cents everywhere.
// The tables live by area in schema/; this file names every one of them, as drizzle.config.ts points drizzle-kit
// here and the code imports its tables from here.
export { auditLog, orderHistory } from './schema/history.js';
export { contactMessages, outgoingMail } from './schema/messages.js';
export { orders, revisionRequests, teamInvites, teamLinks } from './schema/orders.js';
export { invoiceCounters, invoices, paymentEvents, refunds, sandboxCheckoutSessions, withdrawals } from './schema/payments.js';
export { generatedImages, imageDownloads, orderUploads, photoChecks } from './schema/pictures.js';
export { staffSessions, staffUsers } from './schema/staff.js';
export { jobs, rateLimits, siteMetrics, storageIntents } from './schema/system.js';
