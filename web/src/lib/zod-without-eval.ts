import { z } from 'zod';

// Zod compiles object parsers with `new Function` where it may, and probes for that when a schema is
// built. Under the Content-Security-Policy (no 'unsafe-eval') the probe is refused and reported as a
// violation, so the app tells zod not to try. main.tsx imports this first, before any schema exists.
z.config({ jitless: true });
