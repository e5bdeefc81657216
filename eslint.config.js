// The web client's linter (./run test runs it): ESLint's recommended rules for
// browser modules, plus a line-length limit that matches ruff's for Python.
import js from "@eslint/js";
import stylistic from "@stylistic/eslint-plugin";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["src/atelier/web/**/*.js", "tests/**/web/**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    plugins: { "@stylistic": stylistic },
    rules: {
      "@stylistic/max-len": ["error", { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }],
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
      eqeqeq: ["error", "smart"],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
  {
    // the service worker: a classic worker script (the server writes VERSION and SHELL above it)
    files: ["src/atelier/web/sw.js", "src/atelier/web/push_sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
];
