declare module "cloudflare:test" {
  interface ProvidedEnv extends Env {}
}
