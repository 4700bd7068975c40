// Runs s3rver in its own process, so the media tests measure the driver's memory, not the fake
// server's. Arguments: data directory, bucket. Sends { port } once listening; stops on disconnect.
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket, configs: [] }],
});
const { port } = await server.run();
process.send({ port });
process.on('disconnect', () => {
  server.close().finally(() => process.exit(0));
});
