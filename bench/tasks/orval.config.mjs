// orval's configuration for `npm run bench:tasks`: its fetch client (no react-query), one file, into .out/orval,
// with the base URL read at run time from orval-env.ts (the way orval's fetch guide gives for a host known only then).
export default {
  shop: {
    input: { target: "../../test/fixtures/shop-31/spec.yaml" },
    output: {
      client: "fetch",
      mode: "single",
      target: ".out/orval/shop.ts",
      baseUrl: { runtime: "env.shopBaseUrl", imports: [{ name: "env", importPath: "../../orval-env.js" }] },
    },
  },
};
