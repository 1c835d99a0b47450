// The operator CLI as a library, for tests that drive an app the way on-call does.
export { runCli } from './cli';
export { connectCliBus } from './bus';
