// The auth proxy lives in lib/auth/proxy/; this name stays for the tests of other folders that import it.
export { authRoute } from '@/lib/auth/proxy/route';
