// esbuild bundles imported stylesheets into one CSS file per page.
declare module '*.css';
