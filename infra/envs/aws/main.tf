# hindsight on real AWS: one module call per tenant. Push the image to ECR first (see infra/README.md).

provider "aws" {
  region = var.region

  default_tags {
    tags = { "hindsight:env" = var.environment }
  }
}

module "tenant" {
  source   = "../../modules/tenant"
  for_each = var.tenants

  tenant_id           = each.key
  image_uri           = var.image_uri
  llm_model           = var.llm_model
  alarm_sns_topic_arn = var.alarm_sns_topic_arn
}
