"""Waits for moto_server at argv[1], then makes an IAM user allowed s3:* and prints its access key
id and secret (moto checks every later request's signature against them: scripts/with-s3.sh)."""
import json
import sys
import time
import urllib.request

import boto3

endpoint = sys.argv[1]
for _ in range(150):
    try:
        urllib.request.urlopen(endpoint + "/moto-api/", timeout=2).read()
        break
    except OSError:
        time.sleep(0.2)
else:
    sys.exit("s3-setup: no answer from " + endpoint)

# These four requests are the unauthenticated ones (INITIAL_NO_AUTH_ACTION_COUNT=4).
iam = boto3.client(
    "iam", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="setup", aws_secret_access_key="setup")
iam.create_user(UserName="epub2audio")
policy = iam.create_policy(
    PolicyName="epub2audio-s3",
    PolicyDocument=json.dumps(
        {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
iam.attach_user_policy(UserName="epub2audio", PolicyArn=policy["Policy"]["Arn"])
key = iam.create_access_key(UserName="epub2audio")["AccessKey"]
print(key["AccessKeyId"], key["SecretAccessKey"])
