// The latency benchmark's floor (scripts/bench/latency.mjs): the least a Worker can do, served
// by the same `wrangler dev` as the project, so a row "over floor" is what Toolshed itself costs.
export default {
  fetch() {
    return new Response("ok");
  },
};
