// What the shop's start commands share (main.ts, worker-main.ts): a wrong setting ends the start with its message,
// Ctrl-C and SIGTERM close the app cleanly, and a failed start ends the process.
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type AppConfig } from './config.js';

/** The validated config; a wrong setting prints the message that names it and ends the process. */
export function readConfigOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** On SIGINT or SIGTERM the app closes (what is under way finishes) and the process ends; a second signal means now. */
export function closeOnSignals(app: FastifyInstance, messages: { stopping: string; failed: string }): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      // A second Ctrl-C means now.
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, messages.stopping);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, messages.failed);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/** Runs a start command; whatever fails it is printed and ends the process. */
export function runProcess(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
