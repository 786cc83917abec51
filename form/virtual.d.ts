// The key store the page runs, chosen by the page server (server/key-store.ts).
declare module 'virtual:key-store' {
	export const keyStore: import('./pick.ts').KeyStore;
}
