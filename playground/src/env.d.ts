// The page's types: Vite's client (import.meta.glob, new URL(…, import.meta.url) for the worker).
/// <reference types="vite/client" />
