import assert from 'node:assert/strict';
import { test } from 'node:test';
import { awsEncode, EMPTY_SHA256, signS3Request } from '../../src/store/s3/sigv4.js';

// AWS's published example of a signed S3 GET ("Signature Calculations for the Authorization Header", GET Object).
test('SigV4 signs the S3 GET example of the AWS documentation to its published signature', () => {
  const keys = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' };
  const headers = signS3Request({ method: 'GET', url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'), headers: { Range: 'bytes=0-9' }, payloadSha256: EMPTY_SHA256 }, keys, new Date('2013-05-24T00:00:00Z'));
  assert.equal(
    headers.authorization,
    'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
  );
});

test('keys are encoded as AWS wants, including the characters encodeURIComponent leaves', () => {
  assert.equal(awsEncode("a b!'()*~é"), 'a%20b%21%27%28%29%2A~%C3%A9');
});
