/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_HELP_URL?: string;
  readonly VITE_CONTACT_URL?: string;
  readonly VITE_TERMS_URL?: string;
  readonly VITE_PRIVACY_URL?: string;
  readonly VITE_FAQ_URL?: string;
  readonly VITE_COOKIES_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
