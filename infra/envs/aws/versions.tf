terraform {
  required_version = ">= 1.6"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.100"
    }
  }

  # Keep state remote and locked for real deployments, e.g.:
  # backend "s3" {
  #   bucket       = "my-terraform-state"
  #   key          = "hindsight/prod.tfstate"
  #   region       = "eu-west-1"
  #   use_lockfile = true
  # }
}
