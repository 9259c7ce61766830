"""Prompt files: shipped defaults, overridden per namespace by a file next to the data (folder or S3)."""

import boto3
import pytest

from hindsight_memory.config import Settings
from hindsight_memory.errors import InvalidInput
from hindsight_memory.reflection import Prompts
from tests.support.moto import new_bucket


def test_a_namespace_without_an_override_gets_the_shipped_prompt(tmp_path):
    prompts = Prompts(str(tmp_path))
    assert "$trajectory" in prompts.get("alice/p", "reflect_user")


def test_an_override_applies_to_its_namespace_only(tmp_path):
    (tmp_path / "prompts" / "alice" / "p").mkdir(parents=True)
    (tmp_path / "prompts" / "alice" / "p" / "questions.md").write_text("- Was the customer's SLA at risk?")
    prompts = Prompts(str(tmp_path))
    assert prompts.get("alice/p", "questions") == "- Was the customer's SLA at risk?"
    assert "SLA" not in prompts.get("bob/p", "questions")


def test_a_namespace_that_could_escape_the_prompt_folder_is_refused(tmp_path):
    with pytest.raises(InvalidInput):
        Prompts(str(tmp_path)).get("../etc", "questions")


@pytest.mark.s3
def test_an_override_is_read_from_the_same_s3_bucket_as_the_data(s3_endpoint):
    bucket = new_bucket(s3_endpoint)
    boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1").put_object(
        Bucket=bucket, Key="tables/prompts/team/ops/questions.md", Body="- 哪个告警本该更早触发？".encode()
    )
    settings = Settings(store_uri=f"s3://{bucket}/tables", s3_endpoint=s3_endpoint)
    prompts = Prompts(settings.store_uri, settings.storage_options())
    assert prompts.get("team/ops", "questions") == "- 哪个告警本该更早触发？"
    assert "$trajectory" in prompts.get("team/other", "reflect_user")
