/**
 * The Node flags every app runs with, wherever it runs: the local launcher (`npm start`, the bench, the e2e
 * stack) puts them on each app's command line, and deploy/docker/Dockerfile's CMD spells the same ones
 * (deploy-manifests.spec.ts checks that). They are V8 flags Node refuses in NODE_OPTIONS, and V8 reads them
 * when it sets up the heap, so `v8.setFlagsFromString` at start-up is too late for them.
 *
 * `--no-memory-reducer`: V8's memory reducer starts a memory-reducing major GC when it judges a process to have
 * gone quiet. In a service that is quiet between bursts it fired in the middle of the next burst: in the bench,
 * the gateway's first major GC after its HTTP section came that way during the create run, paused it 150 ms
 * and, being a memory-reducing collection, threw away the optimised code of 264 functions of the request path,
 * which V8 then compiled again: the gateway's CPU per create 1.8–2.3 ms against 1.3–1.6 without it in
 * three alternated pairs (docs/performance.md §44). Without the reducer the heap is still collected by V8's ordinary limits; it is
 * not shrunk while the service is idle, which a container with a fixed memory limit does not need.
 */
export const APP_NODE_FLAGS: readonly string[] = ['--no-memory-reducer'];
