// The endpoint the form posts to. When exercise 06's endpoint lands, this is the one line to change.
export { startFakeBackend as startBackend } from './fake-endpoint.ts';
