// `next dev` answers its development files (/_next/*, hot reload) only to the address it was started
// for unless told otherwise: list both loopback names, so the page also works, hot reload and live
// preview included, when the Studio frames it as http://127.0.0.1:3000 rather than localhost.
/** @type {import('next').NextConfig} */
const config = {
  allowedDevOrigins: ['127.0.0.1', 'localhost'],
};

export default config;
