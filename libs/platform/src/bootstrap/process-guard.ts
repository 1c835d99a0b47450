import { Logger } from 'pino';

/**
 * The last resort of a running app: a promise rejection nobody handled, or an exception nobody caught,
 * means the process is in a state no code planned for. It is logged (one fatal line, with the error)
 * and the process exits with EXIT_UNEXPECTED, so its supervisor (`npm start`, Kubernetes) starts a
 * clean one. Every known failure path (broker, database and Redis outages) is handled where it happens;
 * this only catches what was missed, loudly, instead of letting Node print a stack and exit 1 or run on.
 */
export const EXIT_UNEXPECTED = 70;

let installed = false;

export function installProcessGuard(
  logger: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    logger.fatal(
      { err: reason },
      'unhandled promise rejection; exiting so the supervisor starts a clean process',
    );
    exit(EXIT_UNEXPECTED);
  });
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception; exiting so the supervisor starts a clean process');
    exit(EXIT_UNEXPECTED);
  });
}
