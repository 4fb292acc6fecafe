// The shop's base URL, which orval's generated fetch functions read at run time (`output.baseUrl.runtime` in orval.config.mjs).
export const env = { shopBaseUrl: "" };
