# By INSTANCE_ID/USERNAME.
terraform import basalt_instance_user.reporting 5f8e3c1e-7c2a-4f1e-9a53-2b7d0c4e8a11/reporting
