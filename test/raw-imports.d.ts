// A file imported with Vite's `?raw` suffix is its text (the trigger test reads migrations/TRIGGERS.md so).
declare module "*?raw" {
  const text: string;
  export default text;
}
