/**
 * @module
 * How browser tests launch headless Chromium: Debian's binary (which `npm test` installs when
 * it is missing) with the flags that keep it quiet and offline on a CI machine. Pass the options
 * to `chromium.launch` of playwright-core.
 */
export function chromiumLaunchOptions(): { executablePath: string; args: string[] } {
  return {
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  };
}
