// Types of Astro's virtual modules (astro:content …) for `tsc -p .`; `astro sync` is not needed.
/// <reference types="astro/client" />
